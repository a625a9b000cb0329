#!/usr/bin/env python3
"""Herlihy and Wing (TOPLAS 1990), Figures 1 and 2: which queue and register histories
are linearizable. Checks H1-H6 (corpus/classic/herlihy-wing-h*.edn) with ariadne and
compares each verdict with the paper's and with the file's own header. Then section
3.3: H7 is sequentially consistent but not linearizable, and H8 shows that sequential
consistency is not local (each queue alone holds, the two together do not).

Usage: papers/herlihy-wing-1990/reproduce.py [--ariadne build/ariadne]
Exit status: 0 when every verdict matches the paper, 1 otherwise.
"""
import json
import os
import subprocess
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

# Section 3.3: (name, file, model, --consistency, the paper's verdict).
SECTION_3_3 = [
    ("H7", "corpus/classic/herlihy-wing-h7.edn", "fifo-queue", "linearizable", "not-linearizable"),
    ("H7", "corpus/classic/herlihy-wing-h7.edn", "fifo-queue", "sequential", "sequentially-consistent"),
    ("H8 per queue", "corpus/classic/herlihy-wing-h8.edn", "independent(fifo-queue())", "sequential-per-key",
     "sequentially-consistent"),
    ("H8", "corpus/classic/herlihy-wing-h8.edn", "independent(fifo-queue())", "sequential",
     "not-sequentially-consistent"),
]


def section_3_3(ariadne):
    """Prints the section 3.3 table; returns the names of the rows that disagree."""
    print("\n# Section 3.3: sequential consistency (H7), and it is not local (H8)\n")
    print("| history | --consistency | the paper | ariadne | witness, or core |")
    print("|---|---|---|---|---|")
    failed = []
    for name, path, model, consistency, claim in SECTION_3_3:
        done = subprocess.run([ariadne, "check", paperlib.repo_path(path), "--model", model, "--consistency",
                               consistency, "--json"], capture_output=True, text=True)
        result = json.loads(done.stdout)
        evidence = ("order " + " ".join(map(str, result["linearization"])) if "linearization" in result else
                    f"core of {len(result.get('core', []))} ops: " + " ".join(map(str, result.get("core", []))))
        print(f"| {name} | {consistency} | {claim} | {result['verdict']} | {evidence} |")
        if result["verdict"] != claim:
            failed.append(f"{name} ({consistency})")
    return failed


if __name__ == "__main__":
    status = paperlib.classic_main(__doc__.splitlines()[0], TITLE, CLAIMS, SUMMARY)
    failed = section_3_3(paperlib.require_binary(paperlib.argument_parser("").parse_known_args()[0].ariadne))
    print()
    if failed:
        print(f"NOT REPRODUCED (section 3.3): {', '.join(failed)}")
        status = 1
    else:
        print("REPRODUCED (section 3.3): H7 sequentially consistent, not linearizable; H8 each queue alone "
              "sequentially consistent, both together not, with a core on both queues")
    sys.exit(status)
