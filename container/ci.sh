#!/usr/bin/env bash
# CI for the container job: the local Debian base (if absent), the image, then the quick job in a
# privileged container writing into a fresh host folder; fails unless that folder is complete. Then
# the same job as the Kubernetes manifest's pod (container/k8s/play.sh) and ./lab compare over both.
#   container/ci.sh            (as root; needs podman, crun, mmdebstrap: ./lab test installs them, see setup/packages)
set -euo pipefail
cd "$(dirname "$0")/.."

podman image exists localhost/heimdall-debian-base:bookworm || container/build-base.sh
# The host's Maven repository as the build's cache: the same artifacts, not downloaded twice.
cache=()
[[ -d "$HOME/.m2/repository" ]] && cache=(-v "$HOME/.m2/repository:/root/.m2/repository")
container/podman-here.sh build --network host "${cache[@]}" -f container/Containerfile -t localhost/heimdall-lab .

out="$(mktemp -d)"
trap 'rm -rf -- "$out"' EXIT
chmod 755 "$out"
container/podman-here.sh run --rm --privileged --security-opt seccomp=unconfined --network none -v "$out:/results" \
  localhost/heimdall-lab --quick --runs 1 --calls 5000 --broker-calls 500 > "$out/.stdout"
folder="$(tail -n 1 "$out/.stdout")"   # the job's last line: its folder, as the container names it
name="${folder#/results/}"
if [[ "$folder" != /results/* || "$name" == */* || "$name" == .* ]]; then
  echo "container/ci.sh: the job's last line is not a folder beneath /results: $folder" >&2
  exit 1
fi
host_folder="$out/$name"
for f in summary.json environment.json table.md samples.arrow; do
  [[ -s "$host_folder/$f" && ! -L "$host_folder/$f" ]] || { echo "container/ci.sh: $host_folder/$f missing or empty" >&2; exit 1; }
done
echo "container/ci.sh: the job wrote a complete results folder ($folder in the container)"

# The same quick job through the Kubernetes manifest (container/k8s/floor-cost.yaml: its pod template under
# podman kube play, docs/kubernetes.md), then ./lab compare over both folders, as a fleet's are compared.
k8s_out="$(mktemp -d)"
trap 'rm -rf -- "$out" "$k8s_out"' EXIT
chmod 755 "$k8s_out"
k8s_folder="$(container/k8s/play.sh "$k8s_out" --quick --runs 1 --calls 5000 --broker-calls 500 | tail -n 1)"
echo "container/ci.sh: the Kubernetes manifest's pod wrote $k8s_folder"
compared="$(./lab compare "$host_folder" "$k8s_folder")" \
  || { echo "container/ci.sh: ./lab compare failed" >&2; exit 1; }
for f in "$host_folder" "$k8s_folder"; do
  grep -qF -- "$(basename "$f")" <<<"$compared" \
    || { echo "container/ci.sh: ./lab compare does not name $(basename "$f"):" >&2; echo "$compared" >&2; exit 1; }
done
echo "container/ci.sh: ./lab compare lined up the podman run folder and the manifest's folder"
