#!/usr/bin/env bash
# Fetch benchmark: GitSource first fetch and no-change re-fetch versus `git clone --depth 1`,
# on a generated repository served on loopback (git:// and smart HTTP).
# Usage: source-git/bench/run.sh [files] [commits] [runs]   (defaults: 5000 500 5)
set -euo pipefail
module="$(cd "$(dirname "$0")/.." && pwd)"
cd "$module"
cp_file="$module/target/bench.classpath"
"$module/../deploy/bench/classpath" source-git "$cp_file"
exec java -Xms512m -cp "target/classes:target/test-classes:$(cat "$cp_file")" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  dev.capstan.source.bench.FetchBenchmark "$@"
