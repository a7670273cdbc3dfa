#!/usr/bin/env bash
# The container job's entry script: ./lab reproduce floor-cost into a results folder beneath a mounted
# directory, then print that folder's path on the last line.
#
#   in the image:  podman run ... -v HOSTDIR:/results IMAGE [--quick] [floor-cost options]
#   on the host:   RESULTS=DIR container/measure.sh [--quick] [floor-cost options]
#
# Arguments are passed through to `./lab reproduce floor-cost` (see its --help), except --out: this
# script names the folder itself, <UTC time>-<host>[-N] beneath RESULTS (default /results).
# Environment: RESULTS (the directory; unset means /results, which must then be a mount point),
# LAB (the lab launcher to run; default the ./lab beside this script's folder), NODE_NAME (a
# Kubernetes node's name: the folder is then <UTC time>-<node>-<kernel release>[-N]).
#
# It runs as root in the container and the directory comes from outside, so it trusts nothing in it:
# RESULTS itself may not be a symbolic link, and the folder is created by `./lab reproduce --out`,
# which refuses a link, a non-empty or foreign folder, and a parent others can write into.
#
# Exit status: that of ./lab reproduce (0 measured, 1 a row failed, 130/143 interrupted, 3 a bug); 2 for bad input here
# (RESULTS missing, not a directory, a link, not writable, or /results not mounted; --out given).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lab="${LAB:-$here/../lab}"

refuse() {
  echo "measure.sh: $*" >&2
  exit 2
}

if [[ -n "${RESULTS:-}" ]]; then
  results="$RESULTS"
else
  results=/results
  # Without a mount the results would vanish with the container: say so before measuring for minutes.
  if ! awk -v d=/results '$5 == d { found = 1 } END { exit !found }' /proc/self/mountinfo; then
    refuse "/results is not a mounted directory; run with -v HOSTDIR:/results (or set RESULTS=DIR on a host)"
  fi
fi

[[ "$results" == /* ]] || results="$PWD/$results"
if [[ -L "$results" ]]; then
  refuse "RESULTS $results is a symbolic link; name the real directory"
fi
if [[ ! -d "$results" ]]; then
  refuse "RESULTS $results is not a directory (missing or another kind of file)"
fi
if [[ ! -w "$results" || ! -x "$results" ]]; then
  refuse "RESULTS $results is not writable by uid $(id -u)"
fi

for a in "$@"; do
  case "$a" in
    --out|--out=*) refuse "--out is chosen by this script (a new folder beneath RESULTS $results); leave it out" ;;
  esac
done

# A new name each run; if it is taken (a second job the same second) the next suffix is tried, and
# ./lab reproduce --out still refuses anything that appears meanwhile.
# Under Kubernetes (container/k8s/) the pod's host name is the pod's; NODE_NAME (the downward API's
# spec.nodeName) names the node instead, with the kernel release beside it, so the folders collected
# from a pool tell their nodes and kernels apart by name (environment.json records both too).
if [[ -n "${NODE_NAME:-}" ]]; then
  # a path component from outside: a DNS name (Kubernetes' rule for node names), nothing else
  [[ "$NODE_NAME" =~ ^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$ && "$NODE_NAME" != *..* ]] \
    || refuse "NODE_NAME '$NODE_NAME' is not a node name (letters, digits, '.' and '-')"
  kernel="$(uname -r | tr -c 'A-Za-z0-9._+\n-' '_')"
  stamp="$(date -u +%Y-%m-%dT%H%M%SZ)-$NODE_NAME-$kernel"
else
  stamp="$(date -u +%Y-%m-%dT%H%M%SZ)-$(hostname -s 2>/dev/null || uname -n)"
fi
out="$results/$stamp"
n=1
while [[ -e "$out" || -L "$out" ]]; do
  n=$((n + 1))
  out="$results/$stamp-$n"
done

echo "measure.sh: ./lab reproduce floor-cost $* --out $out" >&2
status=0
"$lab" reproduce floor-cost "$@" --out "$out" || status=$?
if [[ -d "$out" && ! -L "$out" ]]; then
  echo "measure.sh: results in $out (exit $status)" >&2
fi
exit "$status"
