#!/usr/bin/env bash
# On the H200: jburn train --engine cuda (the MLP, then the CNN, on the carried Fashion-MNIST cut) and the same training
# in torch on the same GPU (bench/train_torch.py --device cuda), logs under $OUT. Prepare with cli/gpu/collect.sh.
#   bash cli/gpu/train-h200.sh [EPOCHS=5] [PRECISION=f32|bf16|f16] [MODELS="mlp cnn"]
set -uo pipefail
source "$(dirname "$0")/h200-env.sh"
epochs=${1:-5}
precision=${2:-f32}
models=${3:-mlp cnn}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee "$OUT/device.log"
java=(.gpu/jdk/bin/java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx24g -cp ".gpu/lib/*" dev.jburn.cli.Main)
for model in $models; do
  run=$model-$precision
  echo "== jburn train --model $model --engine cuda --precision $precision"
  timeout 150 "${java[@]}" train --engine cuda --model "$model" --epochs "$epochs" --precision "$precision" --data .gpu/data \
      --out "$OUT/jburn-$run" > "$OUT/jburn-$run.log" 2>&1
  echo "exit $?"; grep -E "jburn train:|^epoch [0-9]+/[0-9]+: loss|test:|time:|Exception|fell back|fallback|jburn train " "$OUT/jburn-$run.log" | head -20
  cp "$OUT/jburn-$run/history.csv" "$OUT/jburn-$run.csv" 2>/dev/null
  echo "== torch --model $model --device cuda --precision $precision"
  timeout 90 python3 bench/train_torch.py --device cuda --model "$model" --epochs "$epochs" --precision "$precision" --data .gpu/data \
      > "$OUT/torch-$run.log" 2>&1
  echo "exit $?"; tail -7 "$OUT/torch-$run.log"
done
