#!/usr/bin/env bash
# Runs one engine benchmark against the cluster of $KUBECONFIG (start one with deploy/testcluster/up).
# Usage: engine/bench/run.sh commit-latency|dependency-wake|noop-1000
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cp_file="$root/engine/target/bench-classpath.txt"
(cd "$root" && mvn -B -q -o -pl engine test-compile dependency:build-classpath \
  -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >/dev/null) \
  || { echo "engine/bench/run.sh: build failed; run mvn -pl engine test-compile to see why" >&2; exit 1; }
# The engine's JIT flags (deploy/install/engine/deployment.yaml): the build is large generated methods.
exec java -Xmx512m -XX:-DontCompileHugeMethods -XX:ReservedCodeCacheSize=128m -Dcapstan.repoRoot="$root" -Dlogback.configurationFile="$here/logback-bench.xml" \
  -cp "$(cat "$cp_file"):$root/engine/target/classes:$root/engine/target/test-classes" "$here/EngineBench.java" "${1:-commit-latency}"
