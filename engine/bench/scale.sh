#!/usr/bin/env bash
# Scale of the real engine process against the cluster of $KUBECONFIG: N Kustomizations of M
# ConfigMaps each; prints the time until all are Ready and the engine's peak RSS.
# Usage: engine/bench/scale.sh [N=1000] [M=4]   (JVM flags of the engine: $CAPSTAN_BENCH_JVM)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cp_file="$root/engine/target/bench-classpath.txt"
# The peak RSS counted is the engine's and its build workers' together (they are its children).
# The flags of a small engine (deploy/install/README.md, "A small engine"): the serial collector
# with an 8 MiB young generation and a heap that gives memory back, C1 only with its thresholds
# raised five times (less code compiled for the same work), small thread stacks.
flags="${CAPSTAN_BENCH_JVM:--XX:+UseSerialGC -Xss512k -Xms16m -Xmx256m -Xmn8m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=5 -XX:+ExitOnOutOfMemoryError}"
# (the command line module: it builds the jar, and its classpath holds the engine's test classes)
"$root/deploy/bench/classpath" cli "$cp_file"
exec java -Xmx512m -Dcapstan.bench.limitMinutes="${CAPSTAN_BENCH_LIMIT_MINUTES:-20}" -Dlogback.configurationFile="$here/logback-bench.xml" \
  -cp "$(cat "$cp_file"):$root/engine/target/classes:$root/engine/target/test-classes" "$here/ScaleBench.java" "${1:-1000}" "${2:-4}" \
  "$root/cli/target/capstan.jar" "$flags"
