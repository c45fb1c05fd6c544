#!/usr/bin/env bash
# On the H200, issue 17's whole-step comparison: for each batch size and model, `jburn train --engine cuda` with CUDA
# graphs off, then on (the default), then the same training in torch eager and torch.compile(mode="reduce-overhead"),
# all on the same GPU in one call. Prints samples/s per epoch; logs under $OUT. The graphs-off run goes first so that
# both jburn runs find the step's kernels already compiled in the shared NVRTC cache (the first run compiles them).
# Prepare with cli/gpu/collect.sh; carry .gpu.
#   BATCHES="128 1024" MODELS="mlp cnn" EPOCHS=4 COMPILE=1 bash cli/gpu/graphs-h200.sh
set -uo pipefail
source "$(dirname "$0")/h200-env.sh"
epochs=${EPOCHS:-4}
cache=$(mktemp -d)
java=(.gpu/jdk/bin/java -XX:-UseProfiledLoopPredicate --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx24g
      -Djburn.cuda.cacheDir="$cache" -Djburn.cuda.graphs.verbose=true)
for batch in ${BATCHES:-128 1024}; do
  for model in ${MODELS:-mlp cnn}; do
    for graphs in false true; do
      run=$model-b$batch-graphs-$graphs
      echo "== jburn --model $model --batch-size $batch, CUDA graphs $graphs"
      timeout 120 "${java[@]}" -Djburn.cuda.graphs=$graphs -cp ".gpu/lib/*" dev.jburn.cli.Main train --engine cuda --model "$model" \
          --batch-size "$batch" --epochs "$epochs" --data .gpu/data --out "$OUT/$run" > "$OUT/$run.log" 2>&1
      echo "exit $?"; grep -E "^epoch [0-9]+/[0-9]+: loss|test:|time:|Exception|cpu engine|captured|not captured" "$OUT/$run.log" | cut -c1-220 | head -16
    done
    echo "== torch eager --model $model --batch-size $batch"
    timeout 90 python3 bench/train_torch.py --device cuda --model "$model" --batch-size "$batch" --epochs "$epochs" --data .gpu/data \
        > "$OUT/torch-$model-b$batch.log" 2>&1
    echo "exit $?"; grep -E '"epoch"|test_' "$OUT/torch-$model-b$batch.log" | cut -c1-160
    if [ -n "${COMPILE:-}" ]; then
      echo "== torch.compile(mode=reduce-overhead) --model $model --batch-size $batch"
      timeout 150 python3 bench/train_torch.py --device cuda --model "$model" --batch-size "$batch" --epochs "$epochs" --data .gpu/data \
          --compile reduce-overhead > "$OUT/torch-compiled-$model-b$batch.log" 2>&1
      echo "exit $?"; grep -E '"epoch"|test_' "$OUT/torch-compiled-$model-b$batch.log" | cut -c1-160
    fi
  done
done
