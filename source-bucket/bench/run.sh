#!/usr/bin/env bash
# Bucket benchmark: a bucket of generated manifests (1,000 by default) on the S3 test server
# (deploy/testregistry, built on first use), fetched into a fresh store and timed against the AWS
# SDK for Go's S3 client fetching the same (tools/s3/fetch, same concurrency), then the unchanged
# re-check (one listing, nothing downloaded) timed.
# Usage: source-bucket/bench/run.sh [objects] [rounds] [re-checks]   (defaults: 1000 7 200)
set -euo pipefail
module="$(cd "$(dirname "$0")/.." && pwd)"
cd "$module"
cp_file="$module/target/bench.classpath"
"$module/../deploy/bench/classpath" source-bucket "$cp_file"
exec java -cp "target/classes:target/test-classes:$(cat "$cp_file")" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  dev.capstan.source.bucket.bench.BucketBenchmark "$@"
