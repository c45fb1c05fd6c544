#!/usr/bin/env bash
# On the H200: jburn train --engine cuda (the MLP, then the CNN, on the carried Fashion-MNIST cut) and the same training
# in torch on the same GPU (bench/train_torch.py --device cuda), logs under $OUT. Prepare with cli/gpu/collect.sh.
#   bash cli/gpu/train-h200.sh [EPOCHS=5]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-/tmp/jburn-out}
mkdir -p "$OUT"
[ -d .gpu/jdk ] || tar xJf .gpu/jdk.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0
epochs=${1:-5}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee "$OUT/device.log"
java=(.gpu/jdk/bin/java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx24g -cp ".gpu/lib/*" dev.jburn.cli.Main)
for model in mlp cnn; do
  echo "== jburn train --model $model --engine cuda"
  timeout 150 "${java[@]}" train --engine cuda --model "$model" --epochs "$epochs" --data .gpu/data --out "$OUT/jburn-$model" \
      > "$OUT/jburn-$model.log" 2>&1
  echo "exit $?"; grep -E "jburn train:|^epoch [0-9]+/[0-9]+: loss|test:|time:|Exception|jburn train " "$OUT/jburn-$model.log" | head -20
  cp "$OUT/jburn-$model/history.csv" "$OUT/jburn-$model.csv" 2>/dev/null
  echo "== torch --model $model --device cuda"
  timeout 90 python3 bench/train_torch.py --device cuda --model "$model" --epochs "$epochs" --data .gpu/data > "$OUT/torch-$model.log" 2>&1
  echo "exit $?"; tail -7 "$OUT/torch-$model.log"
done
