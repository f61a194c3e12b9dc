#!/usr/bin/env bash
# Re-fetch benchmark: the OCI source against the Distribution registry on loopback (built from
# deploy/testregistry on first use): the first pull of an artifact pushed by `capstan push
# artifact`, and the re-fetch of its unchanged tag, with the registry's requests counted.
# Usage: source-oci/bench/run.sh [files] [runs]   (defaults: 500 50)
set -euo pipefail
# (the benchmark pushes with `capstan push`, so it lives among the command line's tests)
module="$(cd "$(dirname "$0")/../../cli" && pwd)"
cd "$module"
cp_file="$module/target/bench.classpath"
"$module/../deploy/bench/classpath" cli "$cp_file"
exec java -Xms256m -cp "target/classes:target/test-classes:$(cat "$cp_file")" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  dev.capstan.source.oci.bench.RefetchBenchmark "$@"
