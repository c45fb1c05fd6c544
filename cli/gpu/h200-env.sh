# Sourced by the cli/gpu scripts on the H200: the project root as the working directory, $OUT made, the packed runtime
# unpacked, and NVLink multicast off in this process and every child (it can take a shared host's GPUs down).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
OUT=${OUT:-/tmp/jburn-out}
mkdir -p "$OUT"
[ -d .gpu/jdk ] || tar xJf .gpu/jdk.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
