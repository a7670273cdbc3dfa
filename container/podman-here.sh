#!/usr/bin/env bash
# `podman build|run|kube ARGS...` with the two workarounds a host like this project's VMs needs, each
# applied only where the host needs it; elsewhere it is plain podman. README.md, "Container job":
#
#   container/podman-here.sh build --network host -f container/Containerfile -t localhost/heimdall-lab .
#   container/podman-here.sh run --rm --privileged --security-opt seccomp=unconfined --network none \
#       -v "$PWD/out:/results" localhost/heimdall-lab --quick
#   container/podman-here.sh kube play --network none pod.yaml        (container/k8s/play.sh)
#
# 1. Hybrid cgroups (v1 controllers under /sys/fs/cgroup, and a cgroup2 at /sys/fs/cgroup/unified
#    holding a controller, here hugetlb): crun 1.8 refuses with "cgroups in hybrid mode not supported,
#    drop all controllers from cgroupv2", also with --cgroups=disabled; runc fails mounting the
#    container's cgroup. Podman then runs in a private mount namespace with that cgroup2 mount
#    detached, so crun sees plain cgroup v1. The host's own mounts are untouched.
# 2. Root without CAP_SYS_RESOURCE (this VM's bounding set lacks it): crun cannot raise RLIMIT_NOFILE
#    or RLIMIT_NPROC above the hard limits podman's own processes have ("setrlimit `RLIMIT_NOFILE`:
#    Operation not permitted"), so both are set at or below them: --ulimit for build and run, and for
#    kube (which has no --ulimit) the same limits as default_ulimits of a containers.conf of its own.
#
# Environment: PODMAN (default podman).
set -euo pipefail

podman="${PODMAN:-podman}"
if [[ $# -lt 1 || ( "$1" != build && "$1" != run && "$1" != kube ) ]]; then
  echo "usage: container/podman-here.sh build|run|kube [podman options...]" >&2
  exit 2
fi
sub="$1"
shift

limits=()
capbnd="$(awk '/^CapBnd:/ {print $2}' /proc/self/status)"
if (( (0x${capbnd:-0} >> 24 & 1) == 0 )); then  # bit 24: CAP_SYS_RESOURCE
  nofile="$(ulimit -Hn)"
  limits=(--ulimit "nofile=$nofile:$nofile" --ulimit "nproc=4096:4096")
fi
if [[ $sub == kube ]]; then
  if (( ${#limits[@]} )); then
    # read by podman as it starts (instead of the system's containers.conf: podman's defaults otherwise);
    # a private folder, removed when podman ends
    conf="$(mktemp -d)"
    trap 'rm -rf -- "$conf"' EXIT
    printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=4096:4096"]\n' "$nofile" "$nofile" \
      > "$conf/containers.conf"
    export CONTAINERS_CONF="$conf/containers.conf"
  fi
  limits=()
fi
cmd=("$podman" "$sub" "${limits[@]}" "$@")

unified=/sys/fs/cgroup/unified
hybrid=no
if [[ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" == tmpfs && "$(stat -f -c %T "$unified" 2>/dev/null)" == cgroup2fs ]]; then
  # A cgroup file's size reads 0, so its content is read.
  [[ -n "$(tr -d '[:space:]' < "$unified/cgroup.controllers")" ]] && hybrid=yes
fi
if [[ $hybrid == yes ]]; then
  # The inner shell's "$@" is the podman command line, passed as words, never re-parsed.
  [[ $sub == kube ]] && { unshare --mount --propagation private sh -c 'umount /sys/fs/cgroup/unified && exec "$@"' \
    podman-here "${cmd[@]}"; exit; }
  exec unshare --mount --propagation private sh -c 'umount /sys/fs/cgroup/unified && exec "$@"' podman-here "${cmd[@]}"
fi
[[ $sub == kube ]] && { "${cmd[@]}"; exit; }
exec "${cmd[@]}"
