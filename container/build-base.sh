#!/usr/bin/env bash
# Builds the container's base image from Debian packages alone (no registry is needed or reachable):
# mmdebstrap makes a minimal bookworm root filesystem, `podman import` turns it into the local image
# localhost/heimdall-debian-base:bookworm that container/Containerfile starts FROM.
#
#   container/build-base.sh [MIRROR]     (as root; needs: apt-get install mmdebstrap podman)
#   ENGINE=docker container/build-base.sh   (imports into Docker instead; untested here, no daemon)
#
# MIRROR defaults to http://deb.debian.org/debian. The tarball is written to a private temporary
# folder and removed afterwards.
#
# The image trusts the certificate authorities this host trusts locally (/usr/local/share/ca-certificates,
# e.g. a TLS-inspecting egress proxy's): Maven fetches from Maven Central inside the build and would
# otherwise fail with "PKIX path building failed". Nothing else of the host is copied.
set -euo pipefail

image=localhost/heimdall-debian-base:bookworm
engine="${ENGINE:-podman}"
mirror="${1:-http://deb.debian.org/debian}"

for tool in mmdebstrap "$engine"; do
  command -v "$tool" >/dev/null || { echo "build-base.sh: $tool is missing (apt-get install $tool)" >&2; exit 2; }
done

work="$(mktemp -d)"
trap 'rm -rf -- "$work"' EXIT
# minbase: the Essential packages and apt; the Containerfile installs the toolchain on top.
hooks=()
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  hooks=(--customize-hook='copy-in /usr/local/share/ca-certificates /usr/local/share'
         --customize-hook='chroot "$1" update-ca-certificates')
fi
mmdebstrap --variant=minbase --mode=root --include=ca-certificates "${hooks[@]}" bookworm "$work/base.tar" "$mirror"
"$engine" import --change 'CMD ["/bin/bash"]' "$work/base.tar" "$image"
echo "$image"
