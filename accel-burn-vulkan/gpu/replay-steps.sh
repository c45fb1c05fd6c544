#!/usr/bin/env bash
# Issue 17, replayed Vulkan graphs on a GPU machine: TrainStepBench's MLP and CNN steps at batch 1024 with
# -Djburn.vulkan.graphs on and off, `jburn train --engine vulkan --model mlp --batch-size 1024` on and off against
# torch eager (bench/train_torch.py) in the same call; MORE=1 adds the CNN at batch 128 and `jburn train` CNN,
# BENCH=1 VulkanBench (GEMM 4096 and the fused 16M call over 51 runs). From the repository root, with
#   .gpu/lib            the Vulkan jars and their tests jar plus the cli's jars (LIB= another folder, moved there first)
#   .gpu/jdk.tar.xz     (bash ../shared/gpu/make-runtime.sh with PACK=1)
#   .gpu/data           a Fashion-MNIST cut (bash cli/gpu/collect.sh 20000)
#   .gpu/vulkan         the Vulkan loader (apt-get download libvulkan1; dpkg -x)
#   .gpu/vulkan-spv.tar.xz  optional: SPIR-V cache packed from a lavapipe run (else shaderc compiles there)
# Logs go under $OUT. Keep the carry under 64 MiB: without the conformance kit's jars and the junit console it fits.
set -u
if [ -n "${LIB:-}" ] && [ "$LIB" != .gpu/lib ]; then rm -rf .gpu/lib; mv "$LIB" .gpu/lib; fi
[ -d .gpu/jdk ] || tar xJf .gpu/jdk.tar.xz -C .gpu
OUT=${OUT:-out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
EGL="$(ldconfig -p 2>/dev/null | awk '/libEGL_nvidia\.so\.0/ {print $NF; exit}')"; [ -z "$EGL" ] && EGL=/usr/local/nvidia/lib64/libEGL_nvidia.so.0
mkdir -p $OUT/icd; printf '{"file_format_version": "1.0.1", "ICD": {"library_path": "%s", "api_version": "1.3.0"}}\n' "$EGL" > $OUT/icd/i.json
export VK_DRIVER_FILES=$OUT/icd/i.json LD_LIBRARY_PATH=$PWD/.gpu/vulkan/usr/lib/x86_64-linux-gnu NCCL_NVLS_ENABLE=0
mkdir -p .gpu/cache; [ -f .gpu/vulkan-spv.tar.xz ] && tar xJf .gpu/vulkan-spv.tar.xz -C .gpu/cache --strip-components=1
CP="$(ls .gpu/lib/*.jar | tr '\n' ':')"
J=(.gpu/jdk/bin/java -Xss8m -Xmx24g --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.SharedLibraryExtractPath=/tmp/lw -Djburn.vulkan.cacheDir=$PWD/.gpu/cache)
# DEVT=1: TrainStepBench --device-time (device busy time per step); JFR=1: a 2,000-step MLP replay run under JFR (1 ms samples)
step() { # model batch graphs
  timeout 40 "${J[@]}" -Djburn.vulkan.graphs=$3 -cp "$CP" dev.jburn.vulkan.TrainStepBench --model $1 --batch $2 --image 28 --steps 100 --warmup 20 ${DEVT:+--device-time} > $OUT/step-$1-$2-$3.log 2>&1
  echo "step $1 $2 graphs=$3: $(grep -E 'ms/step' $OUT/step-$1-$2-$3.log | cut -c1-150)"; grep -E 'per step|last loss|graphs recorded|Exception' $OUT/step-$1-$2-$3.log | head -4
}
if [ -n "${JFR:-}" ]; then
  printf '<?xml version="1.0"?><configuration version="2.0"><event name="jdk.ExecutionSample"><setting name="enabled">true</setting><setting name="period">1 ms</setting></event></configuration>\n' > $OUT/p.jfc
  timeout 60 "${J[@]}" -XX:StartFlightRecording=filename=$OUT/replay.jfr,settings=$OUT/p.jfc -cp "$CP" dev.jburn.vulkan.TrainStepBench --model mlp --batch 1024 --image 28 --steps 2000 --warmup 20 > $OUT/jfr-step.log 2>&1
  echo "jfr: $(grep -E 'ms/step' $OUT/jfr-step.log | cut -c1-150)"
fi
jb() { # name model [flags]
  local name=$1 model=$2; shift 2
  timeout 60 "${J[@]}" -Xss1m "$@" -cp "$CP" dev.jburn.cli.Main train --engine vulkan --model $model --batch-size 1024 --epochs 6 --data .gpu/data --out $OUT/$name > $OUT/$name.log 2>&1
  echo "$name: exit $?; samples/s $(grep -oE 'samples_per_s [0-9]+' $OUT/$name.log | awk '{print $2}' | tr '\n' ' ')"; grep -E '^test|Exception|cpu engine' $OUT/$name.log | head -3
}
tor() {
  timeout 60 python3 bench/train_torch.py --device cuda --model $2 --batch-size 1024 --epochs 6 --data .gpu/data --tf32 off > $OUT/$1.log 2>&1
  echo "$1: samples/s $(grep -oE '"samples_per_s": [0-9.]+' $OUT/$1.log | awk '{printf "%.0f ", $2}') $(grep -oE '"test_accuracy": [0-9.]+' $OUT/$1.log)"
}
step mlp 1024 true; step mlp 1024 false
jb mlp-replay mlp; tor mlp-torch mlp; jb mlp-ordinary mlp -Djburn.vulkan.graphs=false
step cnn 1024 true; step cnn 1024 false
[ -n "${MORE:-}" ] && { step cnn 128 true; step cnn 128 false; jb cnn-replay cnn; tor cnn-torch cnn; }
[ -n "${BENCH:-}" ] && timeout 60 "${J[@]}" -cp "$CP" dev.jburn.vulkan.VulkanBench --gemm 4096 --runs 51 --warmup 5 > $OUT/vkbench.log 2>&1; grep -E 'gemm|fused|per call|device time|eager|Jit|buffersCreated' $OUT/vkbench.log | cut -c1-220 | head -16
true
