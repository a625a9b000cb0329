#!/usr/bin/env python3
"""Herlihy and Wing (TOPLAS 1990), Figures 1 and 2: which queue and register histories
are linearizable. Checks H1-H6 (corpus/classic/herlihy-wing-h*.edn) with ariadne and
compares each verdict with the paper's and with the file's own header.

Usage: papers/herlihy-wing-1990/reproduce.py [--ariadne build/ariadne]
Exit status: 0 when every verdict matches the paper, 1 otherwise.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paperlib  # noqa: E402

# What the paper states (section 1.2 and 2.3 for Figure 1, section 1.2 for Figure 2).
CLAIMS = [
    ("H1", "corpus/classic/herlihy-wing-h1.edn", "linearizable"),
    ("H2", "corpus/classic/herlihy-wing-h2.edn", "not-linearizable"),
    ("H3", "corpus/classic/herlihy-wing-h3.edn", "linearizable"),
    ("H4", "corpus/classic/herlihy-wing-h4.edn", "not-linearizable"),
    ("H5", "corpus/classic/herlihy-wing-h5.edn", "linearizable"),
    ("H6", "corpus/classic/herlihy-wing-h6.edn", "not-linearizable"),
]
TITLE = "Herlihy and Wing 1990: FIFO queue histories H1-H4 (Figure 1), registers H5-H6 (Figure 2)"
SUMMARY = "all 6 verdicts match the paper (H1, H3, H5 linearizable; H2, H4, H6 not)"

if __name__ == "__main__":
    sys.exit(paperlib.classic_main(__doc__.splitlines()[0], TITLE, CLAIMS, SUMMARY))
