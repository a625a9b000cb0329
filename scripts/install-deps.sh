#!/usr/bin/env bash
# Installs what ariadne builds and tests against, if any of it is missing: Debian 12
# packages (the toolchain and libraries, clang 14 and its runtime libraries for the fuzz
# targets and their sanitizers (fuzz/), Chromium for the browser test of the HTML
# report, clang-format 14 for the test that the tree follows .clang-format, and Clojure,
# whose EDN reader reads `check --edn` back in a test), then the
# browser test's npm packages (tests/browser, from its lockfile).
# Uses sudo when not root. Safe to run repeatedly: it does nothing when all are present.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(build-essential cmake pkg-config libz3-dev libcadical-dev libboost-graph-dev
          libcli11-dev doctest-dev chromium clang-14 libclang-rt-14-dev clang-format-14 clojure)
# Node.js and npm usually come with the machine; Debian's only when there is none.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "ariadne: installing missing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}"
fi

# playwright-core drives Debian's Chromium; it never downloads a browser of its own.
browser_test="$root/tests/browser"
if [ ! -d "$browser_test/node_modules/playwright-core" ]; then
  echo "ariadne: installing the browser test's npm packages (tests/browser)"
  npm ci --prefix "$browser_test" --prefer-offline --no-audit --no-fund --loglevel=error
fi
