#!/usr/bin/env bash
# Fairness across namespaces of the real engine process against the cluster of $KUBECONFIG:
# tenant B's commit -> applied, RUNS times with tenant A idle, then RUNS times while tenant A's
# N Kustomizations have their apply refused and retry every second; prints RESULT lines.
# Usage: engine/bench/fairness.sh [N=1000] [RUNS=20]   (JVM flags of the engine: $CAPSTAN_BENCH_JVM)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cp_file="$root/engine/target/bench-fairness-classpath.txt"
# The flags of a small engine, as scale.sh's (deploy/install/README.md, "A small engine").
flags="${CAPSTAN_BENCH_JVM:--XX:+UseSerialGC -Xss512k -Xms16m -Xmx256m -Xmn8m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=5 -XX:+ExitOnOutOfMemoryError}"
# The jar and the classpath from one reactor build, which installs nothing in the local Maven
# repository (each module's classpath file is written in turn; the command line module's last).
(cd "$root" && mvn -B -q ${CAPSTAN_BENCH_MVN_FLAGS:-} -pl cli -am package dependency:build-classpath \
  -DskipTests -Dspotless.check.skip=true -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file" >/dev/null)
exec java -Xmx512m -Dlogback.configurationFile="$here/logback-bench.xml" \
  -cp "$(cat "$cp_file"):$root/engine/target/classes:$root/engine/target/test-classes" "$here/FairnessBench.java" "${1:-1000}" "${2:-20}" \
  "$root/cli/target/capstan.jar" "$flags"
