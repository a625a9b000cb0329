module ariadne

go 1.19
