#!/usr/bin/env bash
# Runs the Vulkan engine's conformance kit and a small benchmark on a GPU machine that has no Java,
# no Maven, no network and no Vulkan loader. Needs, next to the repository root:
#   .gpu/jdk      a JDK 25 runtime (jlink'd, with jdk.incubator.vector)
#   .gpu/lib      jars from accel-burn-vulkan/gpu/collect-jars.sh
#   .gpu/vulkan   the unpacked libvulkan1 package (also from collect-jars.sh)
# Logs go to $OUT/vulkan-*.log (OUT defaults to ./out).
#
# usage: accel-burn-vulkan/gpu/run-h200.sh [--small] [--skip-kit] [--skip-bench] [--gemm-only] [--reductions] [--host-overhead]
#                                          [--step-profile]
#   --small       benchmark sizes for a CPU driver (GEMM 512, fused 1M elements)
#   --gemm-only   only the GEMM work (issue 17): the GEMM tests (VulkanCoopGemmTest, CoopMatrixTest), then the
#                 benchmark's f32/f16/bf16 GEMMs with their correctness check against the cpu engine
#                 (--check: 1x1x1, 17x33x65, 129x40x136 and n^3), each line naming the kernel that ran
#                 ("gemm-coopmat-f16-16x16x16-wide", "gemm-f32-wide", ...), and torch's GEMMs of the same
#                 sizes and dtypes; then the f32 GEMM again with -Djburn.vulkan.gemmDoubleBuffer=true
#                 ("gemm-f32-db8-wide"); no exit probes, no kit. Look for "GEMM CHECK PASSED" (twice).
#   --reductions  only the reductions: VulkanReductionPlanTest (every ReductionPlan form against the cpu engine),
#                 then ReductionBench (batch norm's per-channel sum of f32[128,26,26,32] eagerly and as a Jit-fused
#                 sum(x*x), a sum over the last axis, a full sum), each line with its dispatches per call;
#                 no exit probes, no kit, no other benchmark.
#   --host-overhead  only the host cost per dispatch (issue 17), each run twice: with the host-path settings on (the
#                 default) and with all four off (-Djburn.vulkan.pushDescriptors=false, hostCopies=false,
#                 dependencyBarriers=false, batchWhileBusy=false: the path before them). VulkanBench --dispatch-only (eager add, sum, dot and
#                 a Jit call on a few f32: us/op wall and caller CPU), TrainStepBench (the CLI CNN's Adam step at
#                 batch 128 as Trainer.fit runs it, after 50 warm-up steps: ms/step wall, caller CPU, dispatches,
#                 barriers, submissions, host waits, transfers and buffers created per step, then device busy time
#                 per step from GPU timestamps), and, when dev.jburn.cli.Main is on the class path (add the cli jars
#                 with JBURN_EXTRA_CP), `jburn train --engine vulkan --model cnn --epochs 2 --limit 8000` on
#                 ${JBURN_DATA:-.gpu/data}. No exit probes, no kit.
#   --step-profile  only where the CNN training step's device time goes (issue 17: the Vulkan step at batch 1024 ran at
#                 0.58x torch eager on the H200): TrainStepBench --device-time with -Djburn.vulkan.dispatchTimes=true at
#                 each batch of ${STEP_BATCHES:-128 1024} (--steps ${PROFILE_STEPS:-50}), printing the device time per step by
#                 kernel and work-group count, largest first. No exit probes, no kit.
# environment overrides (for trying it elsewhere, e.g. on lavapipe):
#   JBURN_GPU_JAVA   java to use (default .gpu/jdk/bin/java)
#   VK_DRIVER_FILES  ICD manifest (default /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json)
#   JBURN_VULKAN_DEVICE  -Djburn.vulkan.device (index or name substring)
#   KIT_TIMEOUT, TESTS_TIMEOUT, BENCH_TIMEOUT  phase limits in seconds (300, 90, 90), under the device tool's 600
#   TRAIN_ARGS, TRAIN_TIMEOUT  --host-overhead's jburn train arguments ("--epochs 2 --limit 8000") and limit (240 s)
#   JBURN_EXTRA_CP   more class path entries (':'-separated), e.g. the cli jar and its libraries for --host-overhead
#   BENCH_JAVA_OPTS  extra JVM options for the benchmark, e.g. -XX:StartFlightRecording=filename=$OUT/bench.jfr
#                    (then: jfr print --events jdk.ExecutionSample bench.jfr, on any machine)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
OUT="${OUT:-$ROOT/out}"
mkdir -p "$OUT"

SMALL=0; KIT=1; BENCH=1; GEMM_ONLY=0; REDUCTIONS=0; HOST=0; PROFILE=0
for a in "$@"; do
  case "$a" in
    --small) SMALL=1 ;;
    --gemm-only) GEMM_ONLY=1; KIT=0 ;;
    --skip-kit) KIT=0 ;;
    --skip-bench) BENCH=0 ;;
    --reductions) REDUCTIONS=1; KIT=0; BENCH=0 ;;
    --host-overhead) HOST=1; KIT=0; BENCH=0 ;;
    --step-profile) PROFILE=1; KIT=0; BENCH=0 ;;
    *) echo "unknown argument: $a" >&2; exit 2 ;;
  esac
done

JAVA="${JBURN_GPU_JAVA:-$ROOT/.gpu/jdk/bin/java}"
LIB="$ROOT/.gpu/lib"
CONSOLE="$LIB/junit-platform-console-standalone.jar"
export LD_LIBRARY_PATH="$ROOT/.gpu/vulkan/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# NVIDIA's packaged manifest names the GLX library, whose Vulkan entry points refuse to initialize on a
# headless machine (no X server: vk_icdNegotiateLoaderICDInterfaceVersion returns
# VK_ERROR_INITIALIZATION_FAILED); the EGL library of the same driver works. So unless told otherwise,
# point the loader at a manifest naming libEGL_nvidia.so.0.
if [ -z "${VK_DRIVER_FILES:-}" ]; then
  EGL="$(ldconfig -p 2>/dev/null | awk '/libEGL_nvidia\.so\.0/ {print $NF; exit}')"
  [ -z "$EGL" ] && [ -e /usr/local/nvidia/lib64/libEGL_nvidia.so.0 ] && EGL=/usr/local/nvidia/lib64/libEGL_nvidia.so.0
  if [ -n "$EGL" ]; then
    mkdir -p "$OUT/icd"
    printf '{"file_format_version": "1.0.1", "ICD": {"library_path": "%s", "api_version": "1.3.0"}}\n' "$EGL" > "$OUT/icd/nvidia_egl_icd.json"
    VK_DRIVER_FILES="$OUT/icd/nvidia_egl_icd.json"
  fi
fi
export VK_DRIVER_FILES="${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}"
export VK_ICD_FILENAMES="$VK_DRIVER_FILES"   # older loaders read this name

for f in "$JAVA" "$CONSOLE" "$ROOT/.gpu/vulkan/usr/lib/x86_64-linux-gnu/libvulkan.so.1" "$VK_DRIVER_FILES"; do
  if [ ! -e "$f" ]; then echo "missing: $f" | tee "$OUT/vulkan-error.log" >&2; exit 1; fi
done

CP="$(ls "$LIB"/*.jar | grep -v junit-platform-console-standalone | tr '\n' ':')${JBURN_EXTRA_CP:-}"
NATIVES="${TMPDIR:-/tmp}/jburn-lwjgl-$$"
JVM=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xss8m
     "-Dorg.lwjgl.system.SharedLibraryExtractPath=$NATIVES"
     "-Djburn.vulkan.cacheDir=$ROOT/.gpu/cache"
     "-XX:ErrorFile=$OUT/hs_err_%p.log" -XX:ErrorLogTimeout=20
     "-Djburn.vulkan.coopMatrix=${COOP:-true}")  # the cooperative-matrix kernel is opt-in; this runner tests it (COOP=false: not)
# SPIR-V compiled elsewhere (collect-jars.sh packs this machine's cache, ~160 KB compressed): shaderc output
# depends only on the GLSL source and shaderc's version, so every source the GPU's kernels share with the
# packing machine's is a cache hit here, instead of ~1,700 compilations of ~0.2 s on a cold cache.
if [ -f "$ROOT/.gpu/vulkan-spv.tar.xz" ]; then
  mkdir -p "$ROOT/.gpu/cache"
  tar xJf "$ROOT/.gpu/vulkan-spv.tar.xz" -C "$ROOT/.gpu/cache" --strip-components=1 && echo "SPIR-V cache: $(ls "$ROOT/.gpu/cache" | wc -l) files"
fi
if [ -n "${JBURN_VULKAN_DEVICE:-}" ]; then JVM+=("-Djburn.vulkan.device=$JBURN_VULKAN_DEVICE"); fi

{
  echo "date: $(date -u)"
  echo "host: $(uname -a)"
  echo "java: $JAVA"; "$JAVA" -version 2>&1
  echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  echo "VK_DRIVER_FILES=$VK_DRIVER_FILES"; cat "$VK_DRIVER_FILES" 2>&1
  command -v nvidia-smi >/dev/null && nvidia-smi 2>&1
  echo "class path:"; ls -la "$LIB"
} > "$OUT/vulkan-env.log" 2>&1

STATUS=0
echo "== availability"
"$JAVA" "${JVM[@]}" -cp "$CP" dev.jburn.vulkan.AvailabilityProbeMain 2>&1 | tee "$OUT/vulkan-probe.log"
if ! grep -q '^PROBE true' "$OUT/vulkan-probe.log"; then
  echo "the vulkan engine is not available here; see $OUT/vulkan-probe.log" >&2
  exit 1
fi

if [ "$GEMM_ONLY" = 1 ]; then
  echo "== GEMM tests (log: $OUT/vulkan-gemm-tests.log)"
  timeout -s QUIT -k 10 "${TESTS_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" -jar "$CONSOLE" execute -cp "$CP" \
      --select-class dev.jburn.vulkan.VulkanCoopGemmTest --select-class dev.jburn.vulkan.CoopMatrixTest \
      --details=tree --details-theme=ascii --disable-banner \
      --reports-dir "$OUT/vulkan-junit-gemm" > "$OUT/vulkan-gemm-tests.log" 2>&1 || STATUS=1
  tail -n 25 "$OUT/vulkan-gemm-tests.log"
fi

if [ "$REDUCTIONS" = 1 ]; then
  echo "== reduction tests (log: $OUT/vulkan-reduction-tests.log)"
  timeout -s QUIT -k 10 "${TESTS_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" -jar "$CONSOLE" execute -cp "$CP" \
      --select-class dev.jburn.vulkan.VulkanReductionPlanTest \
      --details=tree --details-theme=ascii --disable-banner \
      --reports-dir "$OUT/vulkan-junit-reductions" > "$OUT/vulkan-reduction-tests.log" 2>&1 || STATUS=1
  tail -n 15 "$OUT/vulkan-reduction-tests.log"
  echo "== reduction benchmark (log: $OUT/vulkan-reduction-bench.log)"
  if [ "$SMALL" = 1 ]; then RUNS=(--runs 5 --warmup 2); else RUNS=(--runs 31 --warmup 20); fi
  timeout -k 5 "${BENCH_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" ${BENCH_JAVA_OPTS:-} -cp "$CP" dev.jburn.vulkan.ReductionBench "${RUNS[@]}" \
      > "$OUT/vulkan-reduction-bench.log" 2>&1 || STATUS=1
  cat "$OUT/vulkan-reduction-bench.log"
fi

if [ "$HOST" = 1 ]; then
  OFF=(-Djburn.vulkan.pushDescriptors=false -Djburn.vulkan.hostCopies=false -Djburn.vulkan.dependencyBarriers=false
       -Djburn.vulkan.batchWhileBusy=false)
  if [ "$SMALL" = 1 ]; then STEP=(--batch 2 --image 10 --steps 100 --warmup 50); else STEP=(--batch 128 --image 28 --steps 200 --warmup 50 --device-time); fi
  # One step first, untimed, so that neither setting's runs pay for compiling the shaders (SPIR-V and pipeline caches).
  timeout -k 5 "${BENCH_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" -cp "$CP" dev.jburn.vulkan.TrainStepBench "${STEP[@]:0:4}" --steps 1 --warmup 1 \
      > "$OUT/vulkan-host-caches.log" 2>&1 || STATUS=1
  for setting in on off; do
    if [ "$setting" = on ]; then S=(); else S=("${OFF[@]}"); fi
    echo "== host path $setting: small calls (log: $OUT/vulkan-host-$setting-dispatch.log)"
    timeout -k 5 "${BENCH_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" "${S[@]}" ${BENCH_JAVA_OPTS:-} -cp "$CP" dev.jburn.vulkan.VulkanBench --dispatch-only \
        --dispatch-seconds 10 > "$OUT/vulkan-host-$setting-dispatch.log" 2>&1 || STATUS=1
    grep -E 'us/(op|call)|stats' "$OUT/vulkan-host-$setting-dispatch.log" | tail -n 5
    echo "== host path $setting: CNN train step (log: $OUT/vulkan-host-$setting-step.log)"
    timeout -k 5 "${BENCH_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" "${S[@]}" ${BENCH_JAVA_OPTS:-} -cp "$CP" dev.jburn.vulkan.TrainStepBench "${STEP[@]}" \
        > "$OUT/vulkan-host-$setting-step.log" 2>&1 || STATUS=1
    cat "$OUT/vulkan-host-$setting-step.log"
    if "$JAVA" "${JVM[@]}" -cp "$CP" dev.jburn.cli.Main --help >/dev/null 2>&1; then
      TRAIN=(${TRAIN_ARGS:---epochs 2 --limit 8000})
      echo "== host path $setting: jburn train --engine vulkan --model cnn ${TRAIN[*]} (log: $OUT/vulkan-host-$setting-train.log)"
      timeout -k 5 "${TRAIN_TIMEOUT:-240}" "$JAVA" "${JVM[@]}" "${S[@]}" -cp "$CP" dev.jburn.cli.Main train --engine vulkan --model cnn \
          "${TRAIN[@]}" --data "${JBURN_DATA:-$ROOT/.gpu/data}" --out "$OUT/train-$setting" > "$OUT/vulkan-host-$setting-train.log" 2>&1 || STATUS=1
      grep -E 'samples_per_s|time:|test:' "$OUT/vulkan-host-$setting-train.log"
    else
      echo "(no dev.jburn.cli.Main on the class path: set JBURN_EXTRA_CP to the cli jar and its libraries to time jburn train)"
    fi
  done
fi

if [ "$PROFILE" = 1 ]; then
  for batch in ${STEP_BATCHES:-128 1024}; do
    echo "== CNN train step at batch $batch, device time by kernel (log: $OUT/vulkan-profile-$batch.log)"
    timeout -k 5 "${BENCH_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" -Djburn.vulkan.dispatchTimes=true ${BENCH_JAVA_OPTS:-} -cp "$CP" dev.jburn.vulkan.TrainStepBench \
        --batch "$batch" --image 28 --steps "${PROFILE_STEPS:-50}" --warmup 10 --device-time > "$OUT/vulkan-profile-$batch.log" 2>&1 || STATUS=1
    head -n 45 "$OUT/vulkan-profile-$batch.log"
  done
fi

[ "$GEMM_ONLY" = 1 ] || [ "$REDUCTIONS" = 1 ] || [ "$HOST" = 1 ] || [ "$PROFILE" = 1 ] || echo "== exit (a JVM that used the device must end cleanly)"
[ "$GEMM_ONLY" = 1 ] || [ "$REDUCTIONS" = 1 ] || [ "$HOST" = 1 ] || [ "$PROFILE" = 1 ] || for mode in ${EXIT_MODES:-plain close close-other-thread}; do
  timeout -k 5 60 "$JAVA" "${JVM[@]}" -cp "$CP" dev.jburn.vulkan.ExitProbe $mode > "$OUT/vulkan-exit-$mode.log" 2>&1
  echo "$mode: exit status $?; $(grep -h 'EXIT PROBE\|after close' "$OUT/vulkan-exit-$mode.log" | cut -c1-60,150-260 | tr '\n' ' ') $(grep -c SIGSEGV "$OUT/vulkan-exit-$mode.log") SIGSEGV lines"
done

if [ "$KIT" = 1 ]; then
  echo "== conformance kit (log: $OUT/vulkan-conformance.log)"
  # The kit's shaders depend on the generated shapes; with the seed collect-jars.sh's cache was filled with,
  # they are the packed ones instead of ~1,700 fresh shaderc compilations.
  timeout -s QUIT -k 10 "${KIT_TIMEOUT:-300}" "$JAVA" "${JVM[@]}" -DQT_SEED="${QT_SEED:-20261130}" -jar "$CONSOLE" execute -cp "$CP" \
      --select-class dev.jburn.vulkan.VulkanConformanceTest \
      --details=testfeed --details-theme=ascii --disable-banner \
      --reports-dir "$OUT/vulkan-junit-kit" > "$OUT/vulkan-conformance.log" 2>&1 || STATUS=1
  tail -n 25 "$OUT/vulkan-conformance.log"
  echo "== engine tests (log: $OUT/vulkan-tests.log)"
  # Every test class in the tests jar but the kit (package scanning does not look inside jars on -cp).
  SELECT=()
  TESTS_JAR="$(ls "$LIB"/accel-burn-vulkan-*-tests.jar)"
  list_jar() { unzip -Z1 "$1" 2>/dev/null || python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$1"; }
  for c in $(list_jar "$TESTS_JAR" | grep -E '^dev/jburn/vulkan/[A-Za-z]+Test\.class$' | grep -v ConformanceTest); do
    c="${c%.class}"; SELECT+=(--select-class "${c//\//.}")
  done
  timeout -s QUIT -k 10 "${TESTS_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" -jar "$CONSOLE" execute -cp "$CP" "${SELECT[@]}" \
      --details=tree --details-theme=ascii --disable-banner \
      --reports-dir "$OUT/vulkan-junit-tests" > "$OUT/vulkan-tests.log" 2>&1 || STATUS=1
  tail -n 15 "$OUT/vulkan-tests.log"
fi

if [ "$BENCH" = 1 ]; then
  echo "== benchmark (log: $OUT/vulkan-bench.log)"
  if [ "$SMALL" = 1 ]; then SIZES=(--gemm 512 --fused 1048576 --runs 3 --warmup 1); else SIZES=(--gemm 4096 --fused 16777216 --runs 31 --warmup 200); fi
  # f16/bf16 run on cooperative matrices where the device offers them (the line names the kernel; on a device
  # without them they fall back to the cpu engine, slowly: --small has them only with a CPU driver's small sizes).
  SIZES+=(--gemm-dtypes "${GEMM_DTYPES:-f32,f16,bf16}")
  [ "$GEMM_ONLY" = 1 ] && SIZES+=(--check --gemm-only)
  timeout -k 5 "${BENCH_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" ${BENCH_JAVA_OPTS:-} -cp "$CP" dev.jburn.vulkan.VulkanBench "${SIZES[@]}" > "$OUT/vulkan-bench.log" 2>&1 || STATUS=1
  cat "$OUT/vulkan-bench.log"
  if [ "$GEMM_ONLY" = 1 ]; then
    echo "== the double-buffered f32 GEMM (-Djburn.vulkan.gemmDoubleBuffer=true; log: $OUT/vulkan-bench-db8.log)"
    timeout -k 5 "${BENCH_TIMEOUT:-90}" "$JAVA" "${JVM[@]}" -Djburn.vulkan.gemmDoubleBuffer=true ${BENCH_JAVA_OPTS:-} -cp "$CP" dev.jburn.vulkan.VulkanBench \
        "${SIZES[@]}" --gemm-dtypes f32 > "$OUT/vulkan-bench-db8.log" 2>&1 || STATUS=1
    cat "$OUT/vulkan-bench-db8.log"
  fi
  if [ "$SMALL" = 0 ] && command -v python3 >/dev/null && python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
    echo "== torch, same work, same call (log: $OUT/vulkan-torch.log)"
    timeout 60 python3 "$ROOT/accel-burn-vulkan/gpu/torch_peer.py" 4096 16777216 "${GEMM_DTYPES:-f32,f16,bf16}" > "$OUT/vulkan-torch.log" 2>&1 || STATUS=1
    cat "$OUT/vulkan-torch.log"
  fi
fi
rm -rf "$NATIVES"
exit $STATUS
