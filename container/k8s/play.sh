#!/usr/bin/env bash
# Runs the DaemonSet's pod (container/k8s/floor-cost.yaml) on this host with `podman kube play`, as one
# node of the pool would run it, and prints the results folder it wrote on its last line.
#
#   container/k8s/play.sh OUT [floor-cost options...]      (as root; the image localhost/heimdall-lab built)
#
# OUT: an empty directory only root can write (it stands for the node's /var/lib/heimdall-lab/results).
# The options replace the manifest's args (default --quick). Podman 4.3 plays a Pod, not a DaemonSet, so
# the Pod is the DaemonSet's own template, taken from the file as it is: only its name, the hostPath, the
# args, NODE_NAME (this host's name: podman has no scheduler, and no spec.nodeName to hand out) and the restart
# policy (see below) are set here.
# Exit status: 0 with a complete folder, 1 when the job or the folder failed, 2 for bad input.
set -euo pipefail
cd "$(dirname "$0")/../.."

manifest=container/k8s/floor-cost.yaml
refuse() {
  echo "play.sh: $*" >&2
  exit 2
}
fail() {
  echo "play.sh: $*" >&2
  exit 1
}
[[ $# -ge 1 ]] || refuse "usage: container/k8s/play.sh OUT [floor-cost options...]"
out="$1"
shift
[[ "$out" == /* && "$out" =~ ^[A-Za-z0-9/._-]+$ ]] \
  || refuse "OUT '$out': an absolute path of letters, digits, '/', '.', '_', '-'"
[[ -d "$out" && ! -L "$out" && -z "$(ls -A "$out")" ]] || refuse "OUT $out: not an empty directory (or a link)"
args=("${@:---quick}")
json=""
for a in "${args[@]}"; do
  [[ "$a" =~ ^[A-Za-z0-9=.,_-]+$ ]] || refuse "option '$a': letters, digits and '=.,_-' only"
  json+="${json:+, }\"$a\""
done
node="$(hostname -s 2>/dev/null || uname -n)"

work="$(mktemp -d)"
pod="$work/pod.yaml"
down() {
  container/podman-here.sh kube down "$pod" >/dev/null 2>&1 || true
  rm -rf -- "$work"
}
trap down EXIT

# The template: from "  template:" to the end, four spaces less indented, under a Pod's header. The
# nodeSelector stays (podman ignores it); NODE_NAME's downward API (spec.nodeName), which podman 4.3
# refuses ("fieldPath spec.nodeName is either not valid or not supported"), becomes this host's name; and
# restartPolicy Always (a DaemonSet's only choice) becomes Never, since podman 4.3 applies it to the init
# container too: the job, done, would start again, and kube play then fails removing a running "once" container.
{
  printf 'apiVersion: v1\nkind: Pod\n'
  sed -n '/^  template:$/,$p' "$manifest" | tail -n +2 | sed 's/^    //'
} | sed -e "s|^metadata:\$|metadata:\n  name: heimdall-floor-cost|" \
        -e "s|^\( *\)args: \[\"--quick\"\]\$|\1args: [$json]|" \
        -e "s|^\( *\)path: /var/lib/heimdall-lab/results\$|\1path: $out|" \
        -e "s|^  restartPolicy: Always\$|  restartPolicy: Never|" \
        -e "/^ *valueFrom:\$/{N;N;s|^\( *\)valueFrom:\n *fieldRef:\n *fieldPath: spec.nodeName\$|\1value: \"$node\"|}" \
  > "$pod"
for want in "kind: Pod" "name: heimdall-floor-cost" "restartPolicy: Never" "value: \"$node\"" "args: [$json]" \
  "path: $out"; do
  grep -qF -- "$want" "$pod" || fail "the pod made from $manifest lacks '$want' (the manifest changed shape?)"
done

# kube play starts the pod: its init container (the job) runs to the end first.
if ! container/podman-here.sh kube play --network none "$pod" >&2; then
  # the job's own words: its container is named <pod>-<container> (podman keeps a failed init container)
  podman logs --tail 40 heimdall-floor-cost-floor-cost >&2 || true
  fail "podman kube play failed (the job's last lines are above)"
fi
folders=("$out"/*)
[[ ${#folders[@]} -eq 1 && -d "${folders[0]}" && ! -L "${folders[0]}" ]] \
  || fail "expected one results folder in $out: ${folders[*]}"
folder="${folders[0]}"
case "$(basename "$folder")" in
  *-"$node"-"$(uname -r | tr -c 'A-Za-z0-9._+\n-' '_')"*) ;;
  *) fail "the folder $(basename "$folder") does not name the node $node and kernel $(uname -r)" ;;
esac
for f in summary.json environment.json table.md samples.arrow; do
  [[ -s "$folder/$f" && ! -L "$folder/$f" ]] || fail "$folder/$f missing or empty"
done
echo "$folder"
