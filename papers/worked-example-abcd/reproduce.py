#!/usr/bin/env python3
"""The A-D register example (shared seed 003): not linearizable. Checks
corpus/classic/worked-example-abcd.edn with ariadne and prints the verdict, the minimal
core and ariadne's explanation, then checks the history without C's read.

Usage: papers/worked-example-abcd/reproduce.py [--ariadne build/ariadne]
Exit status: 0 when ariadne refutes it with a minimal core of all four ops and the
history without C is linearizable, 1 otherwise.
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paperlib  # noqa: E402

HISTORY = "corpus/classic/worked-example-abcd.edn"
CLAIMS = [("A-D", HISTORY, "not-linearizable")]


def without_process(ariadne, path, process):
    """Checks the history with every event of `process` blanked out.

    The events are replaced by ignored nemesis :info events rather than deleted, so
    every other op keeps its id.
    """
    text = open(path).read().replace(f"{{:process {process}, :type :invoke",
                                     "{:process :nemesis, :type :info").replace(
        f"{{:process {process}, :type :ok", "{:process :nemesis, :type :info")
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, "without-c.edn")
        with open(copy, "w") as out:
            out.write(text)
        result, _ = paperlib.check(ariadne, copy, "register(0)")
    return result


def main():
    args = paperlib.argument_parser(__doc__.splitlines()[0]).parse_args()
    ariadne = paperlib.require_binary(args.ariadne)
    print("# Worked example A-D: write 1 [0,5], write 2 [3,8], read 2 [6,10], read 1 [9,12]; register starts at 0\n")
    failed = paperlib.run_classic_claims(ariadne, CLAIMS)
    # The source's conclusion rests on all four ops (C's read of 2 is what orders A
    # before B), so the minimal core must be the whole history.
    result, _ = paperlib.check(ariadne, paperlib.repo_path(HISTORY), "register(0)")
    whole = result.get("core") == [0, 1, 3, 5] and result.get("core_minimal") is True
    # Without C the other three can be ordered (B, A, D): C's read of 2 is what puts
    # A before B. Shown by checking the history with C's two events removed.
    without_c = without_process(ariadne, paperlib.repo_path(HISTORY), 2)
    print("\n### Without C (process 2)\n")
    if without_c["verdict"] == "linearizable":
        ops = paperlib.classic_ops(paperlib.repo_path(HISTORY))
        order = ", ".join(paperlib.describe_op(i, ops[i]) for i in without_c["linearization"])
        print(f"linearizable: {order}")
    else:
        print(without_c["verdict"])
    print()
    if failed or not whole or without_c["verdict"] != "linearizable":
        print("NOT REPRODUCED: " + ("verdict differs" if failed else
                                    f"core {result.get('core')} is not all four ops" if not whole else
                                    "the history without C is not linearizable"))
        return 1
    print("REPRODUCED: not linearizable; the minimal core is all four ops A, B, C, D")
    return 0


if __name__ == "__main__":
    sys.exit(main())
