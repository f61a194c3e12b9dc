#!/usr/bin/env bash
# Replicas sharing the Kustomizations, as real engine processes against the cluster of $KUBECONFIG
# (issue 40's goals, one RESULT line each): peak RSS of 3 replicas against one engine alone, a
# SIGKILL of 1 of 3 (time until another takes each Kustomization it owned), a graceful stop, a
# partition (one replica's API connections black-holed for 30 s by a local proxy), the share that
# moves from 3 to 4 replicas, and double ownership from the API server's audit log when
# CAPSTAN_AUDIT_LOG names the file the local control plane writes it to (deploy/testcluster/up).
# Usage: engine/bench/shards.sh [N=150]   (JVM flags of the engines: $CAPSTAN_BENCH_JVM)
# 150 is what this 2-core machine ran beside other builds; the goals are stated at 3,000.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cp_file="$root/engine/target/bench-shards-classpath.txt"
# The flags of a small engine, as scale.sh's (deploy/install/README.md, "A small engine").
flags="${CAPSTAN_BENCH_JVM:--XX:+UseSerialGC -Xss512k -Xms16m -Xmx256m -Xmn8m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=5 -XX:+ExitOnOutOfMemoryError}"
# The jar and the classpath from one reactor build, which installs nothing in the local Maven
# repository (each module's classpath file is written in turn; the command line module's last).
(cd "$root" && mvn -B -q ${CAPSTAN_BENCH_MVN_FLAGS:-} -pl cli -am package dependency:build-classpath \
  -DskipTests -Dspotless.check.skip=true -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file" >/dev/null)
exec java -Xmx512m -Dlogback.configurationFile="$here/logback-bench.xml" \
  -cp "$(cat "$cp_file"):$root/engine/target/classes:$root/engine/target/test-classes:$root/cli/target/test-classes" "$here/ShardsBench.java" "${1:-150}" \
  "$root/cli/target/capstan.jar" "$flags" "${CAPSTAN_AUDIT_LOG:-}"
