#!/usr/bin/env bash
# HelmReleases side by side with Flux's helm-controller v1.6 on the cluster of $KUBECONFIG (issue
# 39's goals, one RESULT line each): N HelmReleases of podinfo's chart until all are Ready and the
# peak RSS, for Capstan's engine process and for Flux's source-controller and helm-controller run
# as local processes; then the no-op reconcile of the unchanged releases (writes, renders, CPU per
# reconcile) on both sides.
# Usage: engine/bench/helmreleases.sh [N=100]   (JVM flags of the engine: $CAPSTAN_BENCH_JVM;
# the length of each no-op and idle window: $CAPSTAN_BENCH_WINDOW_SECONDS, default 60;
# CAPSTAN_BENCH_CAPSTAN_ONLY=1 measures the engine alone and judges no goal; more arguments of
# the engine's `capstan run`: $CAPSTAN_BENCH_ENGINE_ARGS)
# Needs Go for Flux's controllers (deploy/flux/build builds them once and applies their CRDs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
: "${KUBECONFIG:?set KUBECONFIG to the cluster to run on}"
cp_file="$root/engine/target/bench-helmreleases-classpath.txt"
# The flags of a small engine, as scale.sh's (deploy/install/README.md, "A small engine").
flags="${CAPSTAN_BENCH_JVM:--XX:+UseSerialGC -Xss512k -Xms16m -Xmx256m -Xmn8m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=5 -XX:+ExitOnOutOfMemoryError}"
# Flux's controllers, built once (the engine alone needs none)
flux_bin=none
if [[ -z "${CAPSTAN_BENCH_CAPSTAN_ONLY:-}" ]]; then
  flux_bin="$("$root/deploy/flux/build" --crds | tail -n 1)"
fi
# podinfo's chart from the chart corpus, as the HelmRelease tests take it
charts="$("$root/kustomize-worker/build" charts | tail -n 1)"
# The jar and the classpath from one reactor build, which installs nothing in the local Maven
# repository (as shards.sh builds them).
(cd "$root" && mvn -B -q ${CAPSTAN_BENCH_MVN_FLAGS:-} -pl cli -am package dependency:build-classpath \
  -DskipTests -Dspotless.check.skip=true -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file" >/dev/null)
exec java -Xmx512m -Dlogback.configurationFile="$here/logback-bench.xml" \
  -Dcapstan.bench.windowSeconds="${CAPSTAN_BENCH_WINDOW_SECONDS:-60}" \
  -Dcapstan.bench.limitMinutes="${CAPSTAN_BENCH_LIMIT_MINUTES:-20}" \
  -Dcapstan.bench.capstanOnly="${CAPSTAN_BENCH_CAPSTAN_ONLY:+true}" \
  -Dcapstan.bench.engineArgs="${CAPSTAN_BENCH_ENGINE_ARGS:-}" \
  -cp "$(cat "$cp_file"):$root/engine/target/classes:$root/engine/target/test-classes" \
  "$here/HelmReleaseBench.java" "${1:-100}" "$root/cli/target/capstan.jar" "$flags" "$flux_bin" \
  "$charts/podinfo"
