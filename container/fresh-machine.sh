#!/usr/bin/env bash
# The fresh-machine check (README, "Two commands"): a fresh clone of this checkout's commit in a container
# of the local Debian bookworm base (container/build-base.sh: Essential packages and apt, none of ours), where
#   1. as a user other than root, ./lab test, ./lab reproduce floor-cost and ./lab vm run each exit 1 naming
#      the one apt-get install line of exactly their packages (setup/packages --list);
#   2. as root, ./lab test --install-only installs them, naming each group: afterwards dpkg-query says every
#      package is installed, notebooks/run --check finds its Python and the native half builds (make);
#   3. a second run, as root and as the other user, installs nothing and prints nothing.
# The suite itself is not run there: its kernel tests need root on the host's kernel and the guest step
# /dev/kvm or TCG; the rest of ./lab test (so CI) runs it on the host.
#
#   container/fresh-machine.sh      (as root; needs podman and git, mmdebstrap when the base is absent)
#
# apt fetches from the sources the base image names (Debian's archive), about 300 MB; the host's apt state
# and sources are never touched. Several minutes (dpkg unpacking), so CI runs it beside ./lab test (.ci/run),
# not inside it: a user's ./lab test should not download and unpack the toolchain again each time.
set -euo pipefail
cd "$(dirname "$0")/.."

[[ $(id -u) -eq 0 ]] || { echo "fresh-machine.sh: run it as root (podman, a root container)" >&2; exit 1; }
for tool in podman git; do
  command -v "$tool" >/dev/null || { echo "fresh-machine.sh: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done
podman image exists localhost/heimdall-debian-base:bookworm || container/build-base.sh

work="$(mktemp -d)"
trap 'rm -rf -- "$work"' EXIT
git clone -q --no-hardlinks "$PWD" "$work/src"
chmod 755 "$work/src"

cat > "$work/check.sh" <<'INNER'
#!/bin/bash
set -uo pipefail
cd /src
fail() { echo "fresh-machine: FAILED: $*" >&2; exit 1; }
other() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }   # nobody
# run NAME CMD...: CMD's status in rc, its standard error and output in out (and shown)
run() {
  local name="$1"; shift
  local start=$SECONDS
  out="$("$@" 2>&1)"; rc=$?
  printf '%s\n' "--- $name: exit $rc after $((SECONDS - start)) s" "$out"
}

for job in test reproduce vm; do
  case $job in
    test) cmd=(./lab test --install-only) ;;
    reproduce) cmd=(./lab reproduce floor-cost --quick) ;;
    vm) cmd=(./lab vm run --kernel debian:6.1 -- --version) ;;
  esac
  run "as nobody: ${cmd[*]}" other "${cmd[@]}"
  absent=$(for p in $(setup/packages --list $job); do
    [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)" == "ii " ]] || echo "$p"; done | paste -sd' ')
  want="apt-get install --no-install-recommends $absent"
  (( rc == 1 )) || fail "as nobody, ${cmd[*]} exited $rc, not 1"
  grep -qxF -e "  $want" -e "  sudo $want" <<<"$out" || fail "as nobody, ${cmd[*]} did not name: $want"
done

run "as root: ./lab test --install-only" ./lab test --install-only
(( rc == 0 )) || fail "./lab test --install-only exited $rc"
# Every group of the test job is absent from the bare base, so each is named: counted from setup/packages
# itself (a group line whose jobs include test), not a number kept here that a new group makes stale.
want_groups=$(grep -cE '^group ("[^"]*\<test\>[^"]*"|test) ' setup/packages)
groups=$(grep -c '^lab: installing ' <<<"$out")
(( groups == want_groups )) || fail "named $groups groups as they were installed, not $want_groups (setup/packages' test groups)"
for p in $(setup/packages --list test); do
  [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)" == "ii " ]] || fail "$p is not installed"
done
echo "--- every package of setup/packages --list test is installed ($(setup/packages --list test | wc -l))"

run "notebooks/run --check" notebooks/run --check
(( rc == 0 )) || fail "notebooks/run --check exited $rc after the install"
run "make -C native (the native half, with the eBPF program)" make -s -C native -j2
(( rc == 0 )) || fail "the native half does not build with the installed packages"
[[ -f native/build/libheimdall-follower.so ]] || fail "make built no libheimdall-follower.so"

run "as root, again: ./lab test --install-only" ./lab test --install-only
(( rc == 0 )) && [[ -z "$out" ]] || fail "the second run exited $rc or printed something"
run "as nobody, again: setup/packages test reproduce vm" other setup/packages test reproduce vm
(( rc == 0 )) && [[ -z "$out" ]] || fail "as nobody, with everything installed, it exited $rc or printed something"
echo "fresh-machine: passed"
INNER
chmod 755 "$work/check.sh"

container/podman-here.sh run --rm --network host -v "$work/src:/src" -v "$work/check.sh:/check.sh:ro" \
  localhost/heimdall-debian-base:bookworm /check.sh
