#!/usr/bin/env bash
# Index benchmark: a large generated index.yaml (30 MB by default) served on loopback, downloaded,
# stored and searched with the heap growth reported, then the unchanged index refreshed and timed.
# Usage: source-helm/bench/run.sh [megabytes] [refreshes]   (defaults: 30 200)
set -euo pipefail
module="$(cd "$(dirname "$0")/.." && pwd)"
cd "$module"
cp_file="$module/target/bench.classpath"
"$module/../deploy/bench/classpath" source-helm "$cp_file"
# The whole heap is capped at 64 MiB: a run that completes grew the heap by less than that. Serial
# GC: the heap's pools then show what the download and search held at once. The JDK's test server
# sets no TCP_NODELAY unless told (every server a repository runs on does): without it each 304
# waits for the client's delayed ACK, about 40 ms, which is the test server's, not the client's.
exec java -XX:+UseSerialGC -Xmx64m -Dsun.net.httpserver.nodelay=true -cp "target/classes:target/test-classes:$(cat "$cp_file")" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  dev.capstan.source.helm.bench.IndexBenchmark "$@"
