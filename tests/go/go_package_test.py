#!/usr/bin/env python3
"""The Go package (go/) as a user builds it: `go vet ./...` and `go test ./...` against
the source tree's headers (include/) and the built shared library
(BUILD/libariadne_c.so), offline.

    go_package_test.py --source-dir . --build-dir build

go/ is copied to a temporary folder first, so that the source tree gets no go.sum,
build cache or module cache; the folder is removed at the end. Exits 0 when both
pass, 1 when one fails (saying which), 77 (skipped) when there is no `go` on PATH.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--build-dir", required=True)
    args = parser.parse_args()
    source = os.path.abspath(args.source_dir)
    build = os.path.abspath(args.build_dir)

    go = shutil.which("go")
    if go is None:
        print("SKIP: no `go` on PATH (Debian: apt-get install golang-go)")
        return SKIP
    library = os.path.join(build, "libariadne_c.so")
    if not os.path.exists(library):
        print(f"FAIL: {library} is missing: build the target ariadne_c first")
        return 1

    scratch = tempfile.mkdtemp(prefix="ariadne-go-")
    try:
        package = os.path.join(scratch, "go")
        shutil.copytree(os.path.join(source, "go"), package)
        library_path = build + (os.pathsep + os.environ["LD_LIBRARY_PATH"] if os.environ.get("LD_LIBRARY_PATH") else "")
        environment = dict(
            os.environ,
            GOCACHE=os.path.join(scratch, "cache"),
            GOPATH=os.path.join(scratch, "gopath"),
            GOPROXY="off",  # the module needs nothing from the network
            GOFLAGS="-buildvcs=false",  # the copy is in no repository
            CGO_ENABLED="1",
            CGO_CFLAGS="-I" + os.path.join(source, "include"),
            CGO_LDFLAGS="-L" + build,
            LD_LIBRARY_PATH=library_path,
        )
        failed = []
        for command in (["go", "version"], ["go", "vet", "./..."], ["go", "test", "-count=1", "./..."]):
            print("$ " + " ".join(command), flush=True)
            if subprocess.run([go] + command[1:], cwd=package, env=environment).returncode != 0:
                failed.append(" ".join(command))
        if failed:
            print("FAIL: " + "; ".join(failed))
            return 1
        print("PASS: go vet and go test")
        return 0
    finally:
        # the module cache is written read-only: make it removable first
        for root, directories, _ in os.walk(scratch):
            for directory in directories:
                try:
                    os.chmod(os.path.join(root, directory), 0o755)
                except OSError:
                    pass
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
