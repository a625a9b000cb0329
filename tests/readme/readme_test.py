#!/usr/bin/env python3
"""The README's samples, run and compared, so that none of them can go stale.

Every fenced block of README.md is one of three kinds, and any other is an error:

- a `console` block: lines starting with "$ " are commands (a line ending in a
  backslash continues on the next), and the lines after a command, up to the next
  one, are its expected output, stdout and stderr together. A line "..." stands for
  any number of lines. The commands of a block run in order in one bash, from a
  scratch folder that links every top-level entry of the repository, so relative
  paths read the tree and files written land in the scratch; `build` there is the
  build folder under test, which is also first on PATH, and HOME is a scratch
  folder, so `cmake --install build --prefix ~/.local` installs nowhere else.
  python/ and go/ are copied rather than linked: the Python and Go samples build in
  them.
- a block right after `<!-- from FILE -->`: its text must appear, line for line,
  in FILE (relative to the repository), so the README shows what a test compiles or
  runs (examples/user_model is built against the installed package by the install
  test).
- a block right after `<!-- not run: REASON -->`, for the few commands a test cannot
  run (`make test` would run this test again).

Before comparing, both sides get the volatile parts masked: durations (a number
before ms, s or us), the scratch and HOME paths, and runs of spaces (a column's
width follows its widest value). The README's find_package(ariadne X.Y) must also
name the version in CMakeLists.txt.

Usage: readme_test.py --source-dir DIR --build-dir DIR --ariadne PATH [--readme FILE]
                      [--work-dir DIR]
Exit 0 when every sample matches; else 1, with a diff of each mismatch.
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(```+)\s*([\w+-]*)\s*$")
MARKER = re.compile(r"^<!--\s*(from|not run:)\s*(.*?)\s*-->$")
SEPARATOR = "@@readme-test-command-{}@@"
DURATION = re.compile(r"\b\d+(?:\.\d+)?(?= ?(?:ms|s|us)\b)")
# The build type an install names: the README shows a release build's, and the test
# also runs on the Debug build of `make test-debug`.
BUILD_TYPE = re.compile(r'(Install configuration: )"\w*"')


def read_blocks(readme_path):
    """The fenced blocks: (first line number, language, marker, lines)."""
    blocks = []
    lines = open(readme_path, encoding="utf-8").read().split("\n")
    marker = None
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            end = i + 1
            while end < len(lines) and lines[end].strip() != fence.group(1):
                end += 1
            if end == len(lines):
                raise SystemExit(f"{readme_path}:{i + 1}: a fenced block that never closes")
            blocks.append((i + 1, fence.group(2), marker, lines[i + 1:end]))
            marker = None
            i = end + 1
            continue
        found = MARKER.match(line.strip())
        if found:
            marker = (found.group(1), found.group(2))
        elif line.strip():
            marker = None  # a marker names the block right after it, nothing later
        i += 1
    return blocks


def parse_console(lines):
    """[(command, expected output lines)] of a console block."""
    commands = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"output before any command: {lines[i]!r}")
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command += "\n" + lines[i]
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        commands.append((command, expected))
    return commands


def normalise(line, scratch, home):
    line = line.replace(home, "~").replace(scratch, ".")
    line = DURATION.sub("N", line)
    line = BUILD_TYPE.sub(r'\1"TYPE"', line)
    return re.sub(r" +", " ", line).rstrip()


def matches(expected, actual):
    """Whether actual fits expected, where a line "..." stands for any lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def run_console(commands, work, env, scratch, home):
    """Runs a block's commands in one bash; a list of (command, expected, actual)."""
    script = "exec 2>&1\n"
    for n, (command, _) in enumerate(commands):
        script += f"printf '\\n%s\\n' '{SEPARATOR.format(n)}'\n{command}\n"
    done = subprocess.run(["bash", "-c", script], cwd=work, env=env, stdout=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, timeout=600)
    output = done.stdout.decode("utf-8", errors="replace")
    results = []
    for n, (command, expected) in enumerate(commands):
        # Each command's output lies between its separator and the next one's.
        start = output.find(SEPARATOR.format(n) + "\n")
        stop = output.find("\n" + SEPARATOR.format(n + 1) + "\n")
        begin = start + len(SEPARATOR.format(n)) + 1
        text = "" if start < 0 else output[begin:stop] if stop >= 0 else output[begin:]
        actual = text.split("\n")
        if actual and actual[-1] == "":
            actual.pop()
        results.append((command, expected, actual))
    return results


# Folders the samples build in (pip writes build/ and *.egg-info into python/, go
# writes go.sum into go/): copied, so that the source tree gets nothing.
COPIED = ("python", "go")


def scratch_tree(source_dir, build_dir, scratch):
    """A folder that links the repository's top-level entries, build the build folder."""
    work = os.path.join(scratch, "work")
    os.makedirs(work)
    for entry in os.listdir(source_dir):
        if entry in (".git", "build"):
            continue
        if entry in COPIED:
            shutil.copytree(os.path.join(source_dir, entry), os.path.join(work, entry), symlinks=True,
                            ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "*.so"))
            continue
        os.symlink(os.path.join(source_dir, entry), os.path.join(work, entry))
    os.symlink(build_dir, os.path.join(work, "build"))
    return work


def project_version(source_dir):
    text = open(os.path.join(source_dir, "CMakeLists.txt"), encoding="utf-8").read()
    found = re.search(r"project\(ariadne\s+VERSION\s+(\d+)\.(\d+)", text)
    return f"{found.group(1)}.{found.group(2)}" if found else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--ariadne", required=True, help="the command line under test")
    parser.add_argument("--readme", help="default: README.md of the source folder")
    parser.add_argument("--work-dir", help="where the scratch folder goes; default: the system's temp")
    args = parser.parse_args()
    source_dir = os.path.realpath(args.source_dir)
    readme = args.readme or os.path.join(source_dir, "README.md")
    failures = []

    version = project_version(source_dir)
    text = open(readme, encoding="utf-8").read()
    for shown in re.findall(r"find_package\(ariadne\s+([\d.]+)", text):
        if shown != version:
            failures.append(f"README shows find_package(ariadne {shown}); CMakeLists.txt says {version}")

    scratch = tempfile.mkdtemp(prefix="readme-test.", dir=args.work_dir)
    home = os.path.join(scratch, "home")
    os.makedirs(home)
    work = scratch_tree(source_dir, os.path.realpath(args.build_dir), scratch)
    env = dict(os.environ, HOME=home, LC_ALL="C.UTF-8",
               PATH=os.path.dirname(os.path.realpath(args.ariadne)) + os.pathsep + os.environ["PATH"])
    commands_run = 0
    for line, language, marker, lines in read_blocks(readme):
        where = f"README.md:{line}"
        if marker and marker[0] == "from":
            path = os.path.join(source_dir, marker[1])
            if not os.path.isfile(path):
                failures.append(f"{where}: the block is said to come from {marker[1]}, which does not exist")
                continue
            file_lines = open(path, encoding="utf-8").read().split("\n")
            if not any(file_lines[k:k + len(lines)] == lines for k in range(len(file_lines))):
                failures.append(f"{where}: the block is not in {marker[1]} as shown")
        elif marker and marker[0] == "not run:":
            continue
        elif language == "console":
            try:
                commands = parse_console(lines)
            except ValueError as e:
                failures.append(f"{where}: {e}")
                continue
            for command, expected, actual in run_console(commands, work, env, scratch, home):
                commands_run += 1
                want = [normalise(x, scratch, home) for x in expected]
                got = [normalise(x, scratch, home) for x in actual]
                if not matches(want, got):
                    diff = "\n".join(difflib.unified_diff(want, got, "README", "actual", lineterm=""))
                    failures.append(f"{where}: `{command}` printed otherwise (masked):\n{diff}")
        else:
            failures.append(f"{where}: a ```{language} block that is neither a console sample nor "
                            "marked <!-- from FILE --> or <!-- not run: REASON -->")

    for failure in failures:
        print(failure, end="\n\n")
    if failures:
        print(f"readme_test: {len(failures)} stale sample(s); scratch kept in {scratch}")
        return 1
    shutil.rmtree(scratch)
    print(f"readme_test: {commands_run} commands run, every sample as shown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
