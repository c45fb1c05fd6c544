#!/usr/bin/env bash
# Runs the JMH benchmarks: bench/run.sh [JMH regex] [extra JMH args]. Results also go to bench/results/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
(cd "$here" && ./mvnw -B -q -DskipTests -pl bench -am package) >&2
mkdir -p "$here/bench/results"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
exec "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
  -cp "$here/bench/target/classes:$here/bench/target/lib/*" org.openjdk.jmh.Main \
  -rf json -rff "$here/bench/results/jmh-$stamp.json" "${@:-.*}"
