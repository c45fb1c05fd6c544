#!/usr/bin/env bash
# On the H200, in one call: NVRTC on every kernel the cuda engine writes, the cuda conformance kit, then
# `jburn train --engine cuda --model cnn` beside the same training in torch (samples/s, test accuracy), and where the
# CNN step's GPU time goes (ncu, one metric over a window of launches). Logs under $OUT.
# Prepare here: bash cli/gpu/collect.sh 30000 && bash accel-burn-cuda/gpu/add-test-jars.sh
#   [KIT_TIMEOUT=s] [MLP=1] [JFR=1] [COMPILE=1] [SOAK=steps] [GRAPHS_OFF=1] bash cli/gpu/cnn-step-h200.sh [EPOCHS=2] [KIT=1] [NCU=1]
# GRAPHS_OFF=1 also trains with CUDA graphs off (-Djburn.cuda.graphs=false), to show what the replays give.
set -uo pipefail
source "$(dirname "$0")/h200-env.sh"
epochs=${1:-2}; kit=${2:-1}; ncu_on=${3:-1}
java=.gpu/jdk/bin/java
flags=(-XX:-UseProfiledLoopPredicate --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xss8m -Xmx24g -Djburn.cuda.graphs.verbose=true)
cache=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee "$OUT/device.log"
echo "== NVRTC compile check"
timeout 90 "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cache" -cp ".gpu/lib/*" dev.jburn.cuda.EmitterCompileCheck > "$OUT/compile.log" 2>&1
echo "exit $?"; grep -E "emitter compile check|FAIL|Exception" "$OUT/compile.log" | head -30
if [ "$kit" = 1 ]; then
  echo "== cuda kit"
  timeout -s QUIT -k 10 "${KIT_TIMEOUT:-230}" "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cache" -jar .gpu/lib/junit-platform-console-standalone-1.11.4.jar execute \
      -cp "$(ls .gpu/lib/*.jar | grep -v console-standalone | tr '\n' ':')" --select-class dev.jburn.cuda.CudaNativeTest --select-class dev.jburn.cuda.CudaGraphsTest --select-class dev.jburn.cuda.CudaConformanceTest \
      --details=testfeed --disable-banner > "$OUT/kit.log" 2>&1
  echo "exit $?"; grep -E "tests (successful|failed|aborted)" "$OUT/kit.log"; echo "passed: $(grep -c ':: SUCCESSFUL' "$OUT/kit.log")"
  grep -A12 ":: FAILED\|:: ABORTED" "$OUT/kit.log" | cut -c1-300 | head -80
fi
train=("$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cache" -cp ".gpu/lib/*" dev.jburn.cli.Main train --engine cuda --model cnn --data .gpu/data)
echo "== jburn train --model cnn --engine cuda --epochs $epochs"
timeout 150 "${train[@]}" --epochs "$epochs" --out "$OUT/jburn-cnn" > "$OUT/jburn-cnn.log" 2>&1
echo "exit $?"; grep -E "jburn train:|^epoch [0-9]+/[0-9]+: loss|test:|time:|Exception|cpu engine|graph" "$OUT/jburn-cnn.log" | head -20
if [ -n "${GRAPHS_OFF:-}" ]; then
  echo "== the same with CUDA graphs off"
  timeout 150 "$java" "${flags[@]}" -Djburn.cuda.graphs=false -Djburn.cuda.cacheDir="$cache" -cp ".gpu/lib/*" dev.jburn.cli.Main train \
      --engine cuda --model cnn --data .gpu/data --epochs "$epochs" --out "$OUT/jburn-cnn-nographs" > "$OUT/jburn-cnn-nographs.log" 2>&1
  echo "exit $?"; grep -E "^epoch [0-9]+/[0-9]+: loss|test:|time:|Exception" "$OUT/jburn-cnn-nographs.log" | head -12
fi
echo "== torch --model cnn --device cuda --epochs $epochs"
timeout 90 python3 bench/train_torch.py --device cuda --model cnn --epochs "$epochs" --data .gpu/data > "$OUT/torch-cnn.log" 2>&1
echo "exit $?"; tail -7 "$OUT/torch-cnn.log"
if [ -n "${COMPILE:-}" ]; then
  # the issue's second peer: torch.compile(mode="reduce-overhead") (Inductor kernels replayed as CUDA graphs)
  for m in cnn ${MLP:+mlp}; do
    echo "== torch.compile(mode=reduce-overhead) --model $m --device cuda --epochs $epochs"
    timeout 240 python3 bench/train_torch.py --device cuda --model $m --epochs "$epochs" --data .gpu/data --compile reduce-overhead \
        > "$OUT/torch-compiled-$m.log" 2>&1
    echo "exit $?"; tail -7 "$OUT/torch-compiled-$m.log" | cut -c1-400
  done
fi
if [ -n "${MLP:-}" ]; then
  echo "== jburn train --model mlp --engine cuda --epochs $epochs, then torch"
  timeout 90 "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cache" -cp ".gpu/lib/*" dev.jburn.cli.Main train --engine cuda --model mlp --data .gpu/data \
      --epochs "$epochs" --out "$OUT/jburn-mlp" > "$OUT/jburn-mlp.log" 2>&1
  echo "exit $?"; grep -E "^epoch [0-9]+/[0-9]+: loss|test:|time:|Exception|cpu engine|graph" "$OUT/jburn-mlp.log" | head -12
  if [ -n "${GRAPHS_OFF:-}" ]; then
    echo "== the same with CUDA graphs off"
    timeout 90 "$java" "${flags[@]}" -Djburn.cuda.graphs=false -Djburn.cuda.cacheDir="$cache" -cp ".gpu/lib/*" dev.jburn.cli.Main train --engine cuda --model mlp \
        --data .gpu/data --epochs "$epochs" --out "$OUT/jburn-mlp-nographs" > "$OUT/jburn-mlp-nographs.log" 2>&1
    echo "exit $?"; grep -E "^epoch [0-9]+/[0-9]+: loss|test:|time:|Exception" "$OUT/jburn-mlp-nographs.log" | head -12
  fi
  timeout 60 python3 bench/train_torch.py --device cuda --model mlp --epochs "$epochs" --data .gpu/data > "$OUT/torch-mlp.log" 2>&1
  echo "exit $?"; tail -4 "$OUT/torch-mlp.log"
fi
if [ -n "${SOAK:-}" ]; then
  echo "== device memory over ${SOAK} CNN steps, then an impossible allocation (issue 17)"
  timeout 200 "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cache" -cp ".gpu/lib/*" dev.jburn.cuda.DeviceMemorySoak "$SOAK" > "$OUT/soak.log" 2>&1
  echo "exit $?"; grep -vE "^WARNING" "$OUT/soak.log" | tail -20 | cut -c1-300
fi
if [ -n "${JFR:-}" ]; then
  echo "== JFR of the host side of a CNN training run (1 epoch, 12000 images)"
  timeout 90 "$java" "${flags[@]}" -XX:StartFlightRecording=filename="$OUT/train.jfr",settings=profile -Djburn.cuda.cacheDir="$cache" \
      -cp ".gpu/lib/*" dev.jburn.cli.Main train --engine cuda --model cnn --data .gpu/data --epochs 2 --limit 12000 --out "$OUT/jfr-run" \
      > "$OUT/jfr-run.log" 2>&1
  echo "exit $?"; grep -E "^epoch [0-9]+/[0-9]+: loss" "$OUT/jfr-run.log"
fi
if [ "$ncu_on" = 1 ] && command -v ncu > /dev/null; then
  echo "== ncu over 400 launches of CNN training steps"
  timeout 150 ncu --metrics gpu__time_duration.sum --launch-skip 3000 --launch-count 400 --csv --log-file "$OUT/ncu.csv" \
      "${train[@]}" --epochs 1 --limit 6000 --out "$OUT/ncu-run" > "$OUT/ncu-run.log" 2>&1
  echo "exit $?"
  python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; rows = rows[1:]
ki, gi, vi = head.index("Kernel Name"), head.index("Grid Size"), head.index("Metric Value")
tot = collections.defaultdict(float); cnt = collections.Counter()
for r in rows:
    try: v = float(r[vi].replace(",", ""))
    except ValueError: continue
    k = (r[ki][:60], r[gi]); tot[k] += v; cnt[k] += 1
all_ = sum(tot.values())
print(f"{len(rows)} launches, {all_/1e3:.1f} us of GPU time")
for k, v in sorted(tot.items(), key=lambda kv: -kv[1])[:25]:
    print(f"{100*v/all_:5.1f}%  {v/cnt[k]/1e3:8.1f} us x{cnt[k]:4d}  {k[0]}  grid {k[1]}")
PY
fi
