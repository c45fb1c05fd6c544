#!/usr/bin/env bash
# On the GPU machine, issue 17's batch-1024 step: `jburn train --engine cuda` (ENGINE=vulkan: the vulkan engine, jars from
# LIB=.gpu/libv, the loader in .gpu/vulkan; BATCH=128 another batch size) with the defaults and with TUNED's flags (by
# default conv 1's direct kernels and measured split-K GEMMs), alternating with torch eager (TF32 off, as JBurn's f32 default) in the same
# call, ROUNDS rounds (the second in reverse order); torch.compile(mode="reduce-overhead") once; then the MLP at batch
# 1024 the same way. Prints each run's samples/s per epoch and its test line; logs under $OUT. Prepare with
# `bash cli/gpu/collect.sh 20000` (20,000 images: 18,333 train, so the padded last batch wastes 0.5%; at 8,000 it wasted
# 12%, a cost torch's unpadded last batch does not pay) and carry .gpu/lib, .gpu/data, .gpu/jdk.tar.xz.
#   EPOCHS=6 ROUNDS=2 TUNED="-Djburn.cuda.directConv=true -Djburn.cuda.splitK=true" bash cli/gpu/step-1024-h200.sh
set -uo pipefail
source "$(dirname "$0")/h200-env.sh"
engine=${ENGINE:-cuda}
lib=${LIB:-.gpu/lib}
batch=${BATCH:-1024}
[ "$engine" = vulkan ] && source "$(dirname "$0")/vulkan-env.sh"
epochs=${EPOCHS:-6}
rounds=${ROUNDS:-2}
read -r -a tuned <<< "${TUNED:--Djburn.cuda.directConv=true -Djburn.cuda.splitK=true}"
cache=$(mktemp -d)
java=(.gpu/jdk/bin/java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx24g -Djburn.cuda.cacheDir="$cache"
      -Djburn.cuda.splitK.verbose=true -Dorg.lwjgl.system.memoryBackend=ffm)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee "$OUT/device.log"

# jb NAME MODEL BATCH [-Dflags...]: one jburn run, then its samples/s per epoch, test line and split-K choices.
jb() {
  local name=$1 model=$2 batch=$3; shift 3
  local t0=$SECONDS
  timeout 150 "${java[@]}" "$@" -cp "$lib/*" dev.jburn.cli.Main train --engine "$engine" --model "$model" --batch-size "$batch" \
      --epochs "$epochs" --data .gpu/data --out "$OUT/$name" > "$OUT/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - t0)) s; samples/s $(grep -oE 'samples_per_s [0-9]+' "$OUT/$name.log" | awk '{print $2}' | tr '\n' ' ')"
  grep -E "^test|cpu engine|Exception|split-K|splitK" "$OUT/$name.log" | cut -c1-200 | head -8
}
# tor NAME MODEL BATCH [extra args]: the same training in torch.
tor() {
  local name=$1 model=$2 batch=$3; shift 3
  local t0=$SECONDS
  timeout 150 python3 bench/train_torch.py --device cuda --model "$model" --batch-size "$batch" --epochs "$epochs" \
      --data .gpu/data --tf32 off "$@" > "$OUT/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - t0)) s; samples/s $(grep -oE '"samples_per_s": [0-9.]+' "$OUT/$name.log" | awk '{printf "%.0f ", $2}')"
  grep -oE '"test_accuracy": [0-9.]+' "$OUT/$name.log"
}
for r in $(seq 1 "$rounds"); do
  echo "== round $r (CNN, $engine, batch $batch, $epochs epochs)"
  if [ $((r % 2)) = 1 ]; then
    jb cnn-default-$r cnn "$batch"; jb cnn-tuned-$r cnn "$batch" "${tuned[@]}"; tor cnn-torch-$r cnn "$batch"
  else
    tor cnn-torch-$r cnn "$batch"; jb cnn-tuned-$r cnn "$batch" "${tuned[@]}"; jb cnn-default-$r cnn "$batch"
  fi
done
[ -n "${NO_COMPILE:-}" ] || tor cnn-torch-compiled cnn "$batch" --compile reduce-overhead
echo "== MLP, $engine, batch $batch"
jb mlp-default mlp "$batch"; jb mlp-tuned mlp "$batch" "${tuned[@]}"; tor mlp-torch mlp "$batch"
