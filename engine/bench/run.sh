#!/usr/bin/env bash
# Runs one engine benchmark against the cluster of $KUBECONFIG (start one with deploy/testcluster/up).
# Usage: engine/bench/run.sh commit-latency|dependency-wake|noop-1000|wait-cancel
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cp_file="$root/engine/target/bench-classpath.txt"
"$root/deploy/bench/classpath" engine "$cp_file"
# The engine runs inside this JVM (the JVM defaults; its builds run in worker processes).
exec java -Xmx512m -Dcapstan.repoRoot="$root" -Dlogback.configurationFile="$here/logback-bench.xml" \
  -cp "$(cat "$cp_file"):$root/engine/target/classes:$root/engine/target/test-classes" "$here/EngineBench.java" "${1:-commit-latency}"
