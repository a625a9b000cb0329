#!/usr/bin/env python3
"""The Python package as a user installs it: `pip install ./python` offline into a fresh
virtual environment of Debian's Python (its setuptools, wheel and pytest, from
scripts/install-deps.sh), then its pytest suite (python/tests/).

    python_package_test.py --source-dir . --library build/libariadne_c.so --ariadne build/ariadne --work-dir DIR

The package is built from a copy of python/ in DIR, so the source tree gets no build
files. Exits with pytest's status.
"""

import argparse
import os
import shutil
import subprocess
import sys

PYTHON = "/usr/bin/python3"  # Debian's: the one whose setuptools, wheel and pytest are installed


def run(command, **kwargs):
    print("$ " + " ".join(command), flush=True)
    return subprocess.run(command, **kwargs).returncode


def main():
    parser = argparse.ArgumentParser()
    for option in ("--source-dir", "--library", "--ariadne", "--work-dir"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    scratch = os.path.join(os.path.abspath(args.work_dir), "python-package")
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(os.path.join(args.source_dir, "python"), os.path.join(scratch, "python"),
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "libariadne_c.so"))
    venv = os.path.join(scratch, "venv")
    if run([PYTHON, "-m", "venv", "--system-site-packages", venv]) != 0:
        print("FAIL: no venv: install python3-venv (scripts/install-deps.sh)")
        return 1
    # The copy is outside the source tree: ARIADNE_INCLUDE says where ariadne.h is.
    environment = dict(os.environ, ARIADNE_LIBRARY=os.path.abspath(args.library), PIP_NO_INPUT="1",
                       ARIADNE_INCLUDE=os.path.join(os.path.abspath(args.source_dir), "include"))
    if run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "--no-build-isolation", "--no-index",
            os.path.join(scratch, "python")], env=environment) != 0:
        print("FAIL: pip install ./python did not install offline")
        return 1
    # Here the C part must have been compiled (python3-dev is among the dependencies),
    # so that its tests run rather than skip.
    environment = dict(os.environ, ARIADNE_SOURCE_DIR=os.path.abspath(args.source_dir),
                       ARIADNE_CLI=os.path.abspath(args.ariadne), ARIADNE_EXPECT_EXTENSION="1")
    environment.pop("ARIADNE_LIBRARY", None)  # the installed package must find its own copy
    status = run([os.path.join(venv, "bin", "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                  os.path.join(scratch, "python", "tests")], env=environment, cwd=scratch)
    if status == 0:
        shutil.rmtree(scratch, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
