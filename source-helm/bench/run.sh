#!/usr/bin/env bash
# Index benchmark: a large generated index.yaml (30 MB by default) served on loopback, downloaded,
# stored and searched with the heap growth reported, then the unchanged index refreshed and timed.
# Usage: source-helm/bench/run.sh [megabytes] [refreshes]   (defaults: 30 200)
set -euo pipefail
module="$(cd "$(dirname "$0")/.." && pwd)"
cd "$module"
cp_file="$module/target/bench.classpath"
"$module/../deploy/bench/classpath" source-helm "$cp_file"
# Serial GC: the heap's pools then show what the download and search held at once.
exec java -XX:+UseSerialGC -Xmx512m -cp "target/classes:target/test-classes:$(cat "$cp_file")" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  dev.capstan.source.helm.bench.IndexBenchmark "$@"
