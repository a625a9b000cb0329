#!/usr/bin/env bash
# Installs what the test bed runs, if any of it is missing (Debian 12 packages):
# Redis 7.0 and its Sentinel, etcd 3.4, nftables for partitions, iproute2 for the
# namespaces, and Python 3 for the controller and clients (standard library only).
# Uses sudo when not root; does nothing when all are present. Installing the server
# packages starts no server in a container without systemd; the test bed starts its
# own, inside its namespaces, and never the packages' services.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/apt-install-missing.sh" testbed \
  redis-server redis-sentinel etcd-server nftables iproute2 python3
