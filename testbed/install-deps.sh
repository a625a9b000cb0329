#!/usr/bin/env bash
# Installs what the test bed runs, if any of it is missing (Debian 12 packages):
# Redis 7.0 and its Sentinel, etcd 3.4, nftables for partitions, iproute2 for the
# namespaces, and Python 3 for the controller and clients (standard library only).
# Uses sudo when not root; does nothing when all are present. Installing the server
# packages starts no server in a container without systemd; the test bed starts its
# own, inside its namespaces, and never the packages' services.
set -euo pipefail
packages=(redis-server redis-sentinel etcd-server nftables iproute2 python3)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "testbed: installing missing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
