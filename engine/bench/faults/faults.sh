#!/usr/bin/env bash
# The fault bench: N Kustomizations x 4 ConfigMaps from one Git server (and, for the registry
# faults, max(2, N/10) from an OCI registry), the real engine as a separate `capstan run` process,
# faults injected several times each at seeded random moments, and after each the invariants of
# docs/faults.md checked. Prints one line per round, one
# `FAULT <name>: held|broken <median>/<max> s <what broke>` per fault and
# `RESULT <held>/<all> held`.
# Uses the cluster of $KUBECONFIG (the local control plane: deploy/testcluster/up starts it; the
# API server faults need it).
# Usage: engine/bench/faults/faults.sh [-n N=100] [-f FAULT,FAULT...|all] [-r ROUNDS=3] [-s SEED]
#   faults: none kill-9 kill-9-mid-apply kill-9-mid-prune kill-9-mid-status worker-kill disk-full apiserver-restart apiserver-pause-20s git-down-20s
#           git-slow-20s git-500-20s git-truncated-20s registry-down-20s registry-slow-20s
#           registry-500-20s registry-truncated-20s flood-200 partition-drop-5s
#           partition-blackhole-60s relist-410; and, apart from those (two engines electing a leader),
#           partition-leader-60s, partition-lease-30s. `all` is every fault but those two.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
count=100 faults=all rounds=3 seed=$(date +%s%N)
while getopts "n:f:r:s:" opt; do
  case $opt in
    n) count=$OPTARG ;;
    f) faults=$OPTARG ;;
    r) rounds=$OPTARG ;;
    s) seed=$OPTARG ;;
    *) sed -n '10,15p' "$0" >&2; exit 2 ;;
  esac
done
cp_file="$root/cli/target/faults-classpath.txt"
# Built in one reactor (nothing installed into the local Maven repository): the jar the engine
# runs from, the command line's test classes (the bench's parts) and their classpath.
if [[ -z ${CAPSTAN_BENCH_NO_BUILD:-} ]]; then
  (cd "$root" && mvn -B -q -pl cli -am -DskipTests -Dspotless.check.skip=true package \
    dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file" >/dev/null) \
    || { echo "faults.sh: the build failed; run mvn -pl cli -am package -DskipTests to see why" >&2; exit 1; }
fi
export KUBECONFIG="${KUBECONFIG:-$HOME/.cache/capstan/cluster/admin.kubeconfig}"
cd "$root"
exec java -Xmx512m -Dlogback.configurationFile="$root/engine/bench/logback-bench.xml" \
  -cp "$(cat "$cp_file"):$root/cli/target/classes:$root/cli/target/test-classes" \
  "$here/FaultBench.java" "$count" "$faults" "$rounds" "$seed"
