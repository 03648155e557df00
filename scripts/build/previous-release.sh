#!/usr/bin/env bash
# The previous release of the chart and its operator, for the upgrade test (HelmUpgradeIT): chart
# 0.1.0 (the CRD still in crds/) and ragsearch-operator.jar as they were at the last commit with
# that chart version, taken from this clone's git history with `git archive` and built with Maven
# (the operator module and what it needs, no tests). Kept in a cache keyed by the commit: a second
# run builds nothing. Prints the jar's path on stdout; the chart is beside it, in
# <cache>/helm/ragsearch-operator.
#
#   scripts/build/previous-release.sh           build if missing, print the jar's path
#   scripts/build/previous-release.sh --path    print the path the commit maps to (no build)
#
# Cache root: $RAGSEARCH_PREVIOUS_RELEASE_CACHE or ~/.cache/ragsearch/previous-release. Maven runs
# offline first (the dependencies of that commit are the ones this project used then, usually in
# ~/.m2 already) and once more online, without -o, only if something is missing. Wall time goes to
# <cache>/<commit>/build.log.
#
# Needs the commit in this clone: a shallow clone (git clone --depth N) lacks it; the script then
# fetches the clone's history from its origin once, and says what to do if that fails.
set -euo pipefail
# The last commit where helm/ragsearch-operator/Chart.yaml said version 0.1.0 (the parent of the
# commit that made it 0.2.0: git log -- helm/ragsearch-operator/Chart.yaml).
COMMIT=58415487233ad91be689b65bed67423a9e04a142
VERSION=0.1.0
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
root=$(cd "$(dirname "$self")/../.." && pwd)
cache_root=${RAGSEARCH_PREVIOUS_RELEASE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/previous-release}
out="$cache_root/$COMMIT"
# Named by its commit: the node agent links every program's jar into one directory by file name,
# where this one and the current ragsearch-operator.jar must not overwrite each other.
jar="$out/ragsearch-operator-${COMMIT:0:12}.jar"
chart="$out/helm/ragsearch-operator"
if [ "${1:-}" = "--path" ]; then echo "$jar"; exit 0; fi
if [ -f "$jar" ] && [ -f "$chart/Chart.yaml" ]; then touch "$out"; echo "$jar"; exit 0; fi

# A shallow clone (CI systems often make them) fetches its own history once from where it was
# cloned; only if that fails is the missing commit an error.
if ! git -C "$root" cat-file -e "$COMMIT^{commit}" 2>/dev/null \
   && [ "$(git -C "$root" rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
  echo "previous-release: a shallow clone; fetching its history for commit ${COMMIT:0:12}" >&2
  timeout 300 git -C "$root" fetch --quiet --unshallow >&2 || true
fi
if ! git -C "$root" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
  shallow=$(git -C "$root" rev-parse --is-shallow-repository 2>/dev/null || echo unknown)
  echo "previous-release: commit $COMMIT (chart $VERSION, the previous release) is not in this clone" \
       "(shallow: $shallow). Fetch the history (git fetch --unshallow), or build ragsearch-operator.jar from that" \
       "commit yourself and set RAGSEARCH_PREVIOUS_OPERATOR_JAR to it, with that commit's chart in helm/ragsearch-operator" \
       "beside the jar" >&2
  exit 1
fi
command -v mvn >/dev/null || { echo "previous-release: mvn is not installed" >&2; exit 1; }

mkdir -p "$out"
exec 9>"$out/.lock"
flock 9                                  # one build at a time; a waiter reuses the result
if [ -f "$jar" ] && [ -f "$chart/Chart.yaml" ]; then echo "$jar"; exit 0; fi

src="$out/src"
log="$out/build.log"
rm -rf "$src" "$out/helm"
mkdir -p "$src"
git -C "$root" archive --format=tar "$COMMIT" | tar -x -C "$src"
found=$(awk '$1=="version:"{print $2; exit}' "$src/helm/ragsearch-operator/Chart.yaml")
[ "$found" = "$VERSION" ] || { echo "previous-release: $COMMIT has chart version $found, not $VERSION" >&2; exit 1; }
echo "previous-release: building the operator of chart $VERSION (commit ${COMMIT:0:12}) into $out (log: $log)" >&2
start=$(date +%s)
# -DskipTests, not maven.test.skip: the operator's tests depend on the contract module's test jar,
# which the reactor makes only when test classes are compiled.
build=(mvn -B -q -f "$src/pom.xml" -pl operator -am -DskipTests package)
set +e
nice -n 19 "${build[@]}" -o >"$log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  echo "offline build failed (exit $rc); once more with the dependencies resolved online" >>"$log"
  nice -n 19 "${build[@]}" -ntp >>"$log" 2>&1
  rc=$?
fi
set -e
end=$(date +%s)
echo "wall_seconds=$((end - start))" >>"$log"
if [ $rc -ne 0 ] || [ ! -f "$src/operator/target/ragsearch-operator.jar" ]; then
  tail -40 "$log" >&2
  echo "previous-release: mvn failed (exit $rc), see $log" >&2
  exit 1
fi
mkdir -p "$out/helm"
cp -r "$src/helm/ragsearch-operator" "$out/helm/"
mv "$src/operator/target/ragsearch-operator.jar" "$jar"
rm -rf "$src"                            # the sources and the other modules' jars (hundreds of MB)
echo "previous-release: built in $((end - start)) s ($(stat -c %s "$jar") bytes)" >&2
echo "$jar"
