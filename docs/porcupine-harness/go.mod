module github.com/ariadne-checker/porcupine-harness

go 1.19

require github.com/anishathalye/porcupine v1.3.0
