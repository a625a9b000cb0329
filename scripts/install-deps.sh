#!/usr/bin/env bash
# Installs the Debian 12 packages ariadne builds against, if any is missing.
# Uses sudo when not root. Safe to run repeatedly: it does nothing when all are present.
set -euo pipefail
packages=(build-essential cmake pkg-config libz3-dev libcadical-dev libboost-graph-dev
          libcli11-dev doctest-dev)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "ariadne: installing missing Debian packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}"
