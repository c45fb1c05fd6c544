#!/usr/bin/env bash
# On the H200: jburn train --engine vulkan (the CNN and the MLP) through NVIDIA's Vulkan driver, with the engine's fallback
# counts. Needs .gpu/lib to hold the vulkan jar and LWJGL's jars (linux natives), and .gpu/vulkan the loader
# (apt-get download libvulkan1; dpkg -x it there). Logs under $OUT.
#   bash cli/gpu/vulkan-train-h200.sh [EPOCHS=2]
set -uo pipefail
source "$(dirname "$0")/h200-env.sh"
source "$(dirname "$0")/vulkan-env.sh"
java=(.gpu/jdk/bin/java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx24g
      -Dorg.lwjgl.system.memoryBackend=ffm -Dorg.lwjgl.librarypath="${TMPDIR:-/tmp}/jburn-lwjgl-$$" -cp ".gpu/lib/*" dev.jburn.cli.Main)
for model in ${MODELS:-cnn mlp}; do
  echo "== jburn train --engine vulkan --model $model --epochs ${1:-2}"
  timeout "${TRAIN_TIMEOUT:-120}" "${java[@]}" train --engine vulkan --model "$model" --epochs "${1:-2}" --data .gpu/data \
      --out "$OUT/vulkan-$model" > "$OUT/vulkan-$model.log" 2>&1
  echo "exit $?"; grep -E "jburn train:|^epoch [0-9]+/[0-9]+: loss|test:|time:|Exception|cpu engine" "$OUT/vulkan-$model.log" | head -14
done
