#!/usr/bin/env bash
# Installs what ariadne builds and tests against, if any of it is missing: Debian 12
# packages (the toolchain and libraries, clang 14 and its runtime libraries for the fuzz
# targets and their sanitizers (fuzz/), Chromium for the browser test of the HTML
# report, clang-format 14 for the test that the tree follows .clang-format, clang-tidy 14
# for `make tidy`, Clojure, whose EDN reader reads `check --edn` back in a test, Debian's
# Python tools that install and test the Python package offline (venv, pip, setuptools,
# wheel, pytest, and the headers its C part compiles against), Debian's Go, which builds and tests the Go package (go/) through cgo,
# and the test bed's Redis, etcd and nftables, through
# testbed/install-deps.sh),
# then the npm packages of tests/browser (the browser test's playwright-core and the
# ESLint that `make lint-js` runs), from its lockfile.
#
#   scripts/install-deps.sh                 both
#   scripts/install-deps.sh --debian-only   the Debian packages alone: all that building
#                                           and `make run` need, so they work with no npm
#                                           registry in reach
#   scripts/install-deps.sh --npm-only      the npm packages alone
#
# Uses sudo when not root. Safe to run repeatedly: it does nothing when all are present.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

debian=1
npm=1
case "${1:-}" in
  "") ;;
  --debian-only) npm=0 ;;
  --npm-only) debian=0 ;;
  *) echo "usage: $0 [--debian-only | --npm-only]" >&2; exit 64 ;;
esac

if [ "$debian" -eq 1 ]; then
  packages=(build-essential cmake pkg-config libz3-dev libcadical-dev libboost-graph-dev
            libcli11-dev doctest-dev chromium clang-14 libclang-rt-14-dev clang-format-14
            clang-tidy-14 clojure python3-venv python3-pip python3-setuptools python3-wheel
            python3-pytest python3-dev golang-go)
  # Node.js and npm usually come with the machine; Debian's only when there is none.
  command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
  "$root/scripts/apt-install-missing.sh" ariadne "${packages[@]}"
  "$root/testbed/install-deps.sh"
fi

# playwright-core drives Debian's Chromium; it never downloads a browser of its own.
# Installed again whenever a package that package.json names is missing or of another
# version than it pins, so a lockfile that gained or changed a package takes effect.
if [ "$npm" -eq 1 ]; then
  browser_test="$root/tests/browser"
  if ! node -e '
    const dir = process.argv[1];
    const wanted = require(dir + "/package.json");
    const pins = {...wanted.dependencies, ...wanted.devDependencies};
    for (const [name, version] of Object.entries(pins)) {
      try {
        if (require(dir + "/node_modules/" + name + "/package.json").version !== version) process.exit(1);
      } catch { process.exit(1); }
    }' "$browser_test" 2>/dev/null; then
    echo "ariadne: installing the npm packages of tests/browser (the browser test, ESLint)"
    npm ci --prefix "$browser_test" --prefer-offline --no-audit --no-fund --loglevel=error
  fi
fi
