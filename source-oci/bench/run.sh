#!/usr/bin/env bash
# Re-fetch benchmark: the OCI source against the Distribution registry on loopback (built from
# deploy/testregistry on first use): the first pull of an artifact pushed by `capstan push
# artifact`, and the re-fetch of its unchanged tag, with the registry's requests counted.
# Usage: source-oci/bench/run.sh [files] [runs]   (defaults: 500 50)
set -euo pipefail
module="$(cd "$(dirname "$0")/.." && pwd)"
cd "$module"
cp_file="$module/target/bench.classpath"
"$module/../deploy/bench/classpath" source-oci "$cp_file"
exec java -Xms256m -cp "target/classes:target/test-classes:$(cat "$cp_file")" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  dev.capstan.source.oci.bench.RefetchBenchmark "$@"
