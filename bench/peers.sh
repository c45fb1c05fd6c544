#!/usr/bin/env bash
# The peer benchmark: JBurn cpu beside numpy, PyTorch and DJL (PyTorch engine, offline) on the same work, one table of
# JBurn time ÷ peer time. bench/peers.sh [--quick] [--only gemm] [--reps N] ... (--help lists the options).
# The table goes to stdout and to bench/results/peers-<UTC stamp>.md; progress and peer logs to stderr/bench/target/peers.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
# Offline when the DJL/PyTorch jars are already in ~/.m2; the first build fetches them from Maven Central.
offline=-o
[ -f "$HOME/.m2/repository/ai/djl/pytorch/pytorch-native-cpu/2.7.1/pytorch-native-cpu-2.7.1-linux-x86_64.jar" ] || offline=
(cd "$here" && ./mvnw -B -q $offline -DskipTests -pl bench -am package) >&2
mkdir -p "$here/bench/results"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
cd "$here"
"$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
  -cp "$here/bench/target/classes:$here/bench/target/lib/*" dev.jburn.bench.PeerBench "$@" \
  | tee "$here/bench/results/peers-$stamp.md"
