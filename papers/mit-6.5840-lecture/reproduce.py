#!/usr/bin/env python3
"""MIT 6.5840 lecture on linearizability, examples 1-6: which register histories are
linearizable. Checks corpus/classic/lecture-example-*.edn with ariadne and compares each
verdict with the lecture's and with the file's own header.

Usage: papers/mit-6.5840-lecture/reproduce.py [--ariadne build/ariadne]
Exit status: 0 when every verdict matches the lecture, 1 otherwise.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paperlib  # noqa: E402

# What the lecture notes state for each example.
CLAIMS = [
    ("example 1", "corpus/classic/lecture-example-1.edn", "linearizable"),
    ("example 2", "corpus/classic/lecture-example-2.edn", "linearizable"),
    ("example 3", "corpus/classic/lecture-example-3.edn", "not-linearizable"),
    ("example 4", "corpus/classic/lecture-example-4.edn", "not-linearizable"),
    ("example 5", "corpus/classic/lecture-example-5.edn", "not-linearizable"),
    ("example 6", "corpus/classic/lecture-example-6.edn", "not-linearizable"),
]
TITLE = "MIT 6.5840 lecture notes: linearizability examples 1-6 (register, undefined at first)"
SUMMARY = "all 6 verdicts match the lecture (1, 2 linearizable; 3, 4, 5, 6 not)"

if __name__ == "__main__":
    sys.exit(paperlib.classic_main(__doc__.splitlines()[0], TITLE, CLAIMS, SUMMARY))
