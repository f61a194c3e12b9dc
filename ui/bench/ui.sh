#!/usr/bin/env bash
# `capstan ui` speed against the cluster of $KUBECONFIG in headless Chromium: N Kustomizations
# (created in namespaces capstan-ui-bench-*, deleted afterwards unless -Dkeep=true is in
# $CAPSTAN_BENCH_JVM), overview render after load, graph render, and the watches and lists an idle
# view costs. Needs chromium and chromium-driver (deploy/prerequisites installs them).
# Usage: ui/bench/ui.sh [N=1000]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cp_file="$root/ui/target/bench-classpath.txt"
"$root/deploy/bench/classpath" ui "$cp_file"
cd "$root"
# shellcheck disable=SC2086
exec java -Xmx512m ${CAPSTAN_BENCH_JVM:-} -Dlogback.configurationFile="$root/engine/bench/logback-bench.xml" \
  -cp "$(cat "$cp_file"):$root/ui/target/classes:$root/ui/target/test-classes" "$here/UiBench.java" "${1:-1000}"
