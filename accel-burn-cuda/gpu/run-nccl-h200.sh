#!/usr/bin/env bash
# The NCCL checks on the H200 (no Maven, no network; Java only as .gpu/jdk/bin/java):
#   (a) one rank: all-reduce/broadcast/barrier through NCCL on the cuda engine, then a data-parallel fit of one
#       replica against the plain fit (NcclCheck one);
#   (b) two processes on the one GPU, started by dev.jburn.dist.Launcher with different NCCL_HOSTID values (NCCL
#       then takes them for two hosts and talks over sockets): collectives across the ranks, then the 20-step
#       data-parallel fit that rank 0 compares with one replica on the combined batch (NcclCheck ranks).
# NVLink multicast stays off: this script exports NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1,
# NVSHMEM_DISABLE_NVLS=1, the Launcher forces them on its children, and the Java side sets them in its own C
# environment before NCCL loads. Nothing here calls cuMulticastCreate.
# Prepare here (the plain runtime has no java.desktop; the fit does not need it):
#   bash accel-burn-cuda/gpu/collect-jars.sh && bash ../shared/gpu/make-runtime.sh && rm .gpu/lib/jazzer*.jar
# (the fuzzing jars are not needed here, and without them checkout + runtime + jars stay under 64 MiB)
# then send the checkout with .gpu (carry .gpu/jdk and .gpu/lib) and run from the project root:
#   bash accel-burn-cuda/gpu/run-nccl-h200.sh
# The device tool sends the checkout of the session that calls it: run it from a checkout that holds this branch.
# In a git worktree (.git is a file) make-runtime.sh stops at its exclude step; .gpu/ is in .gitignore already, so
# run its jlink line by hand there.
#   (c) the cost of the split step on one GPU: fused graph vs the data-parallel path with one replica (DataParallelCost).
# Logs: $OUT/nccl-device.log, $OUT/nccl-one.log, $OUT/nccl-ranks/rank-{0,1}.log, $OUT/nccl-cost.log.
# Limits (together under 300 s): ONE_TIMEOUT=90, RANKS_TIMEOUT=120, COST_TIMEOUT=80.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-/tmp/jburn-out}
mkdir -p "$OUT/nccl-ranks"
[ -d .gpu/jdk ] || tar xJf .gpu/jdk.tar.xz -C .gpu
java=${JBURN_JAVA:-.gpu/jdk/bin/java}
flags=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xss8m -Xmx16g)
cp=$(ls .gpu/lib/*.jar | grep -v junit-platform-console-standalone | tr '\n' ':')
export JBURN_ENGINE=cuda NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
cacheDir=$(mktemp -d)

echo "== device"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; ls -l /usr/lib/x86_64-linux-gnu/libnccl.so* ; } 2>&1 | tee "$OUT/nccl-device.log"

echo "== (a) one rank: collectives and a one-replica data-parallel fit"
NCCL_DEBUG=WARN timeout -s QUIT -k 10 "${ONE_TIMEOUT:-90}" "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cacheDir" -cp "$cp" \
    dev.jburn.cuda.NcclCheck one > "$OUT/nccl-one.log" 2>&1
echo "one-rank exit code $?"
grep -E "^(ok|FAIL)|nccl (provider|check)|communicator:|^time|Exception" "$OUT/nccl-one.log" | cut -c1-300

echo "== (b) two processes on the one GPU, NCCL_HOSTID differs (NCCL over sockets)"
timeout -k 10 "${RANKS_TIMEOUT:-120}" "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cacheDir" -cp "$cp" \
    dev.jburn.dist.Launcher --nproc 2 --logs "$OUT/nccl-ranks" \
    --env 'NCCL_HOSTID=jburn-host-{rank}' --env JBURN_CUDA_DEVICE=0 --env NCCL_SOCKET_IFNAME=lo --env NCCL_IB_DISABLE=1 \
    --env NCCL_DEBUG=INFO --env NCCL_DEBUG_SUBSYS=INIT,NET \
    dev.jburn.cuda.NcclCheck ranks
echo "two-process exit code $?"
for r in 0 1; do
  echo "-- rank $r"
  grep -E "^(ok|FAIL)|nccl (provider|check)|^rank |^time|Exception|via NET|NET/Socket|Using network|NVLS" "$OUT/nccl-ranks/rank-$r.log" | cut -c1-300 | head -40
done
nvidia-smi --query-gpu=name,memory.used --format=csv,noheader 2>&1 | tee -a "$OUT/nccl-device.log"

echo "== (d) every GPU of the machine as an engine of one JVM (cuda:0, cuda:1, ...), one replica thread per GPU"
NCCL_DEBUG=WARN timeout -s QUIT -k 10 "${DEVICES_TIMEOUT:-90}" "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cacheDir" -cp "$cp" \
    dev.jburn.cuda.NcclCheck devices > "$OUT/nccl-devices.log" 2>&1
echo "devices exit code $?"
grep -E "^(ok|FAIL)|nccl check|^devices|^fallbacks|Exception" "$OUT/nccl-devices.log" | cut -c1-300

echo "== (c) what the split step costs: fused graph vs gradient graph + all-reduce + apply graph (MLP 784-256-10, Adam, batch 128)"
timeout -s QUIT -k 10 "${COST_TIMEOUT:-80}" "$java" "${flags[@]}" -Djburn.cuda.cacheDir="$cacheDir" -cp "$cp" \
    dev.jburn.cuda.DataParallelCost 30720 3 1 > "$OUT/nccl-cost.log" 2>&1
echo "cost exit code $?"
grep -E "samples/s|Exception" "$OUT/nccl-cost.log"
