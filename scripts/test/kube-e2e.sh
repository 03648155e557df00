#!/usr/bin/env bash
# Try ragsearch on a real Kubernetes control plane, with one command and no cluster:
#
#   scripts/test/kube-e2e.sh                   the whole loop (exit 0 only if all of it happened)
#   scripts/test/kube-e2e.sh --until installed stop after the chart is installed (no kubelet, no images)
#   scripts/test/kube-e2e.sh --helm-set K=V    extra --set for helm install (repeatable)
#
# Builds what is missing (the control plane and Helm + kubectl from Go modules, the jars, the
# model; each cached), brings up etcd + kube-apiserver + kube-controller-manager on 127.0.0.1
# (testplane), installs the chart with a real Helm 4 (server-side apply), runs our kubelet
# (NodeAgentCommand: every pod as real processes on 127.x addresses — the chart's two operator
# pods from ragsearch-operator.jar with their service account's token, leader election on the
# chart's Lease; the search service's pods from the server image when it has been built, else
# the server jar), applies examples/ragsearch.yaml
# with its corpus ConfigMap, waits until the RagSearch is Ready with a measured rerank
# concurrency, prints the API server's version, the RagSearch's conditions and the pods, lowers
# its memory limit (1500Mi -> 1200Mi) and waits until the running pods are resized in place and
# have re-tuned their rerank concurrency (same pods, no restart), and tears everything down, also
# when a step fails or on Ctrl-C.
#
# Binaries given in $RAGSEARCH_TESTPLANE_BIN / $RAGSEARCH_HELM_BIN are used as they are (the test
# suite passes its own). State and logs: a new directory under /tmp (kept, and named, on failure).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

until=ready
helm_sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --until) until=${2:?--until needs installed or ready}; shift 2 ;;
    --helm-set) helm_sets+=(--set "${2:?--helm-set needs KEY=VALUE}"); shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "kube-e2e: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$until" in installed|ready) ;; *) echo "kube-e2e: --until takes installed or ready" >&2; exit 2 ;; esac

NAMESPACE=ragsearch-system
RELEASE=ragsearch-operator           # the chart names its objects after the release: ragsearch-operator
LEASE=ragsearch-operator-lock
APPS=default                         # examples/ragsearch.yaml's namespace

work=$(mktemp -d /tmp/ragsearch-kube-e2e.XXXXXX)
mkdir -p "$work/logs"
began=$(date +%s)
say() { printf 'kube-e2e: %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }

plane_pid=""
kubelet_pid=""
# Stops what this script started, by process id (each in a session of its own, so its children
# go with it): the kubelet (its pods are its children), then the plane. Logs stay when something failed.
teardown() {
  local rc=$?
  trap - EXIT INT TERM
  for pid in $kubelet_pid $plane_pid; do
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "$rc" -eq 0 ]; then
    rm -rf "$work"
    say "torn down; all done in $(elapsed "$began")"
  else
    say "torn down; exit $rc; logs kept in $work/logs"
  fi
  exit "$rc"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
say "work directory $work"

# --- build what is missing (each step is cached and takes seconds when nothing changed) ---
testplane=${RAGSEARCH_TESTPLANE_BIN:-}
[ -n "$testplane" ] || testplane=$(scripts/testplane-build.sh)
helm=${RAGSEARCH_HELM_BIN:-}
[ -n "$helm" ] || helm=$(scripts/helm-build.sh)
kubectl_bin=$(dirname "$helm")/kubectl
[ -x "$kubectl_bin" ] || fail "no kubectl beside $helm (scripts/helm-build.sh builds both)"
export HELM_CACHE_HOME="$work/helm/cache" HELM_CONFIG_HOME="$work/helm/config" HELM_DATA_HOME="$work/helm/data"
if [ "$until" = ready ]; then
  export RAGSEARCH_BUILTIN_MODELS="${RAGSEARCH_BUILTIN_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/models}"
  scripts/model/fetch-e5.sh >&2
  # the jars (node agent, search server, operator), rebuilt when a source is newer than one of them
  jars=(operator-sim/target/ragsearch-operator-sim.jar search-server/target/ragsearch-server.jar operator/target/ragsearch-operator.jar)
  for jar in "${jars[@]}"; do
    if [ ! -f "$jar" ] || [ -n "$(find operator-sim/src operator/src contract/src search-server/src -newer "$jar" -print -quit)" ]; then
      say "building the jars"
      mvn -B -ntp -q -DskipTests package -pl operator-sim -am >&2
      break
    fi
  done
fi

# --- the control plane ---
t=$(date +%s)
setsid "$testplane" up --dir "$work/plane" >"$work/logs/up.out" 2>"$work/logs/up.log" </dev/null &
plane_pid=$!
for _ in $(seq 1 360); do
  [ -f "$work/plane/ready" ] && break
  kill -0 "$plane_pid" 2>/dev/null || { tail -20 "$work/logs/up.log" >&2; fail "the control plane did not start"; }
  sleep 1
done
[ -f "$work/plane/ready" ] || fail "the control plane was not ready within 6 minutes"
kubeconfig="$work/plane/kubeconfig"
# kubectl is the one built beside Helm, on this plane: the commands below are the README's as written
kubectl() { "$kubectl_bin" --kubeconfig "$kubeconfig" "$@"; }
kc() { kubectl "$@"; }
say "control plane up in $(elapsed "$t") ($(sed -n 's/^server=//p' "$work/plane/ready"))"
git_version=$(kc get --raw /version | sed -n 's/.*"gitVersion": *"\([^"]*\)".*/\1/p')
[ -n "$git_version" ] || fail "the API server's /version has no gitVersion"
echo "API server /version gitVersion: $git_version"

# --- the chart, with a real Helm 4 (server-side apply) ---
t=$(date +%s)
"$helm" --kubeconfig "$kubeconfig" install "$RELEASE" helm/ragsearch-operator --namespace "$NAMESPACE" \
    --create-namespace --server-side=true ${helm_sets[@]+"${helm_sets[@]}"} >"$work/logs/helm-install.log" 2>&1 \
  || { cat "$work/logs/helm-install.log" >&2; fail "helm install"; }
say "helm install in $(elapsed "$t")"
kc wait crd/ragsearches.ragsearch.io --for=condition=Established --timeout=60s >&2 || fail "the CRD was not established"
echo "Helm release:"
"$helm" --kubeconfig "$kubeconfig" list --namespace "$NAMESPACE"

if [ "$until" = installed ]; then
  # the real Deployment and ReplicaSet controllers make the operator's pods (Pending: no kubelet in this mode)
  want=$(kc -n "$NAMESPACE" get deploy "$RELEASE" -o jsonpath='{.spec.replicas}')
  for _ in $(seq 1 90); do
    n=$(kc -n "$NAMESPACE" get pods -l app.kubernetes.io/instance="$RELEASE" -o name | wc -l)
    [ "$n" -eq "$want" ] && break
    sleep 1
  done
  [ "$n" -eq "$want" ] || fail "$n operator pods, want $want"
  echo "Operator pods ($n, made by the real controllers; no kubelet in this mode):"
  kc -n "$NAMESPACE" get pods -o wide
  exit 0
fi

# --- our kubelet: the node that runs every pod (NodeAgentCommand, operator-sim) ---
# The chart's operator pods run ragsearch-operator.jar (their image's program) with the token of
# the chart's ServiceAccount the API server projects into them, so the chart's RBAC decides what
# they may do; the search service's pods run the server (from its image where this machine can).
node_args=(--kubeconfig "$kubeconfig" --work-dir "$work/node" --server-jar "$root/search-server/target/ragsearch-server.jar"
           --program "ragsearch/operator=$root/operator/target/ragsearch-operator.jar")
[ -f search-server/target/image.tar ] && node_args+=(--image "$root/search-server/target/image.tar")
setsid java -cp operator-sim/target/ragsearch-operator-sim.jar io.ragsearch.sim.node.NodeAgentCommand \
    "${node_args[@]}" >"$work/logs/node.log" 2>&1 </dev/null &
kubelet_pid=$!
for _ in $(seq 1 120); do
  grep -q '^node .* ready' "$work/logs/node.log" && break
  kill -0 "$kubelet_pid" 2>/dev/null || { tail -20 "$work/logs/node.log" >&2; fail "the node agent stopped"; }
  sleep 1
done
grep -q '^node .* ready' "$work/logs/node.log" || fail "the node agent did not register within 2 minutes"
say "$(grep -m1 '^node .* ready' "$work/logs/node.log")"

# --- the operator: the chart's 2 pods, one holding the Lease ---
t=$(date +%s)
holder=""
for _ in $(seq 1 300); do
  holder=$(kc -n "$NAMESPACE" get lease "$LEASE" -o jsonpath='{.spec.holderIdentity}' 2>/dev/null || true)
  ready=$(kc -n "$NAMESPACE" get pods -l app.kubernetes.io/instance="$RELEASE" \
      -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' | grep -c True || true)
  [ -n "$holder" ] && [ "$ready" -eq 2 ] && break
  kill -0 "$kubelet_pid" 2>/dev/null || { tail -20 "$work/logs/node.log" >&2; fail "the node agent stopped"; }
  sleep 1
done
[ -n "$holder" ] && [ "$ready" -eq 2 ] \
  || { tail -20 "$work"/node/pods/*/operator.log >&2 || true; fail "the operator's 2 pods were not Ready with a leader (ready $ready, leader '$holder')"; }
say "operator pods Ready, the Lease taken, $(elapsed "$t") after the node started"
echo "Leader (Lease $LEASE): $holder"

# --- the example: its corpus ConfigMap and the RagSearch ---
t=$(date +%s)
# (the kubeconfig's namespace is the example's, default)
kubectl create configmap handbook-docs --from-file=examples/corpus/en/ >&2
kubectl apply -f examples/ragsearch.yaml >&2
kc -n "$APPS" wait ragsearch/handbook --for=condition=Ready --timeout=900s >&2 \
  || { kc -n "$APPS" get ragsearch handbook -o yaml >&2 || true; fail "the RagSearch did not turn Ready"; }
basis=$(kc -n "$APPS" get ragsearch handbook -o jsonpath='{.status.rerank.basis}')
effective=$(kc -n "$APPS" get ragsearch handbook -o jsonpath='{.status.rerank.effective}')
[ "$basis" = measured ] && [ "${effective:-0}" -ge 1 ] \
  || fail "Ready, but the concurrency was not measured (basis '$basis', effective '$effective')"
say "RagSearch Ready $(elapsed "$t") after apply"
echo "RagSearch handbook: rerank concurrency $effective (basis $basis)"
kubectl get rags
echo "Conditions:"
kc -n "$APPS" get ragsearch handbook \
  -o jsonpath='{range .status.conditions[*]}  {.type}={.status} ({.reason}) {.message}{"\n"}{end}'
echo "Pods:"
kc get pods -A -o wide

# --- in-place resize: a lower memory limit; the running pods keep running and re-tune ---
# The operator announces the lower limit to each pod's server, resizes the pod through its resize
# subresource once the lower bound is in force, our kubelet applies it to the pod's cgroup, and
# the server moves its rerank permits (docs/operator.md, docs/memory.md).
pods_of() { kc -n "$APPS" get pods -l app.kubernetes.io/instance=handbook \
    -o jsonpath='{range .items[*]}{.metadata.uid} {.status.containerStatuses[0].state.running.startedAt} {.status.containerStatuses[0].restartCount}{"\n"}{end}' | sort; }
resize() { kc -n "$APPS" get ragsearch handbook -o jsonpath="{.status.resize.$1}"; }
# the first roll over (the pods that ran before the measurement gone): a rollout under way would roll the resize too
for _ in $(seq 1 120); do
  [ "$(kc -n "$APPS" get pods -l app.kubernetes.io/instance=handbook -o name | wc -l)" -eq 2 ] && break
  sleep 1
done
before=$(pods_of)
t=$(date +%s)
kubectl patch rags handbook --type merge -p '{"spec":{"resources":{"memory":"1200Mi"}}}' >&2
for _ in $(seq 1 300); do
  [ "$(resize memoryLimitBytes)" = 1258291200 ] && [ -n "$(resize retunedAt)" ] \
    && [ "$(resize podsResized)" = "$(resize pods)" ] && break
  kill -0 "$kubelet_pid" 2>/dev/null || { tail -20 "$work/logs/node.log" >&2; fail "the node agent stopped"; }
  sleep 1
done
[ -n "$(resize retunedAt)" ] && [ "$(resize memoryLimitBytes)" = 1258291200 ] \
  || { kc -n "$APPS" get ragsearch handbook -o jsonpath='{.status.resize}' >&2 || true
       fail "the running pods were not resized to 1200Mi and re-tuned within 5 minutes"; }
[ "$(resize mode)" = InPlace ] || fail "resized by a $(resize mode) ($(resize reason)), not in place"
after=$(pods_of)
[ "$before" = "$after" ] || fail "the pods changed (restarted or replaced): before
$before
after
$after"
! echo "$after" | awk '{print $3}' | grep -qv '^0$' || fail "a container restarted: $after"
say "resized in place $(elapsed "$t") after the edit"
echo "In-place resize: memory 1500Mi -> 1200Mi on $(resize pods) pods, no restart (same pod UIDs and container starts, restarts 0): rerank concurrency $effective -> $(resize concurrency), re-tuned $(resize secondsToRetune) s after the edit"
kc -n "$APPS" get events --field-selector reason=Retuned -o jsonpath='{range .items[*]}Event Retuned: {.message}{"\n"}{end}'
