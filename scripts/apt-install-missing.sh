#!/usr/bin/env bash
# Installs those of the named Debian packages that are not installed yet, with apt-get
# (through sudo when not root), and does nothing when all are there.
#
#   scripts/apt-install-missing.sh WHO PACKAGE...     WHO names the caller in its message
set -euo pipefail
who="$1"
shift
missing=()
for p in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "$who: installing missing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}"
fi
