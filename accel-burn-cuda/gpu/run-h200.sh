#!/usr/bin/env bash
# Runs on the H200 (no Maven, no network; Java only as .gpu/jdk/bin/java): NVRTC on every eager
# kernel the emitter writes, the cuda conformance kit and native tests through the JUnit console
# launcher, then CudaBench and the torch peer.
# Logs go to $OUT/cuda-*.log. Prepare here with accel-burn-cuda/gpu/collect-jars.sh and
# ../shared/gpu/make-runtime.sh, then send the checkout with .gpu, and run from the project root:
#   bash accel-burn-cuda/gpu/run-h200.sh [quick]
# TESTS_ONLY=1 stops after the tests; TESTS_FILE=<file of class#method lines> runs only those tests.
# Phase limits (seconds, together under the device tool's 600): COMPILE_TIMEOUT=90, TEST_TIMEOUT=200,
# BENCH_TIMEOUT=150, MLP_TIMEOUT=60, TORCH_TIMEOUT=90. The kit itself took 119 s on the H200.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-/tmp/jburn-out}
mkdir -p "$OUT"
java=${JBURN_JAVA:-.gpu/jdk/bin/java}
flags=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xss8m -Xmx24g)
cp=$(ls .gpu/lib/*.jar | grep -v junit-platform-console-standalone | tr '\n' ':')
# The console launcher: versioned as this module's collect-jars.sh copies it, unversioned as the Vulkan one renames it.
console=$(ls .gpu/lib/junit-platform-console-standalone*.jar | head -1)
export JBURN_ENGINE=cuda
cacheDir=$(mktemp -d)

echo "== device"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee "$OUT/cuda-device.log"

echo "== emitter compile check (NVRTC, every eager kernel; fills the kernel cache)"
timeout "${COMPILE_TIMEOUT:-90}" "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cacheDir" -cp "$cp" dev.jburn.cuda.EmitterCompileCheck > "$OUT/cuda-compile.log" 2>&1
echo "compile check exit code $?"
grep -E "emitter compile check|FAIL|Exception" "$OUT/cuda-compile.log" | head -40

echo "== tests (conformance kit + native checks)"
# testfeed prints each test as it ends, so a run cut short by its time limit still shows how far it got;
# SIGQUIT first makes a hung JVM print its threads before it is killed.
# TESTS_FILE: run only the test methods listed there (one class#method per line), e.g. those a cut-short run did not reach.
select=(--select-class dev.jburn.cuda.CudaNativeTest --select-class dev.jburn.cuda.CudaConformanceTest)
if [ -n "${TESTS_FILE:-}" ]; then select=(); while read -r m; do [ -n "$m" ] && select+=(--select-method "$m"); done < "$TESTS_FILE"; fi
timeout -s QUIT -k 10 "${TEST_TIMEOUT:-200}" "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cacheDir" -jar "$console" execute \
    -cp "$cp" "${select[@]}" \
    --details=testfeed --disable-banner > "$OUT/cuda-tests.log" 2>&1
echo "tests exit code $?"
grep -E "tests (successful|failed|aborted|skipped)|containers (failed|aborted)" "$OUT/cuda-tests.log"
echo "tests passed: $(grep -c ':: SUCCESSFUL' "$OUT/cuda-tests.log")"
grep -A12 ":: FAILED\|:: ABORTED" "$OUT/cuda-tests.log" | cut -c1-400 | head -120

if [ -n "${TESTS_ONLY:-}" ]; then exit 0; fi

echo "== bench (jburn)"
timeout "${BENCH_TIMEOUT:-150}" "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cacheDir" -cp "$cp" dev.jburn.cuda.CudaBench "${1:-full}" > "$OUT/cuda-bench.log" 2>&1
echo "bench exit code $?"
sed -n '/^work (jburn cuda)/,$p' "$OUT/cuda-bench.log"
grep -E "Exception|Error" "$OUT/cuda-bench.log" | head -10

echo "== mlp training step (jburn)"
timeout "${MLP_TIMEOUT:-60}" "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cacheDir" -cp "$cp" dev.jburn.cuda.MlpTrainStep cuda 200 > "$OUT/cuda-mlp.log" 2>&1
echo "mlp exit code $?"
grep -E "mlp train step|Exception" "$OUT/cuda-mlp.log" | head -5

echo "== bench (torch peer)"
PYTHONUNBUFFERED=1 timeout "${TORCH_TIMEOUT:-90}" python3 accel-burn-cuda/gpu/torch_peer.py "${1:-full}" > "$OUT/cuda-torch.log" 2>&1
echo "torch exit code $?"
cat "$OUT/cuda-torch.log"
