"""The torch side of accel-burn-vulkan's H200 benchmark (run by run-h200.sh right after VulkanBench):
GEMM 4096 in f32 (TF32 off, as the Vulkan GEMM computes in f32), f16 and bf16 (f32 accumulation, as the
Vulkan cooperative-matrix GEMM), and a*b+c on 16M f32, median after warm-up, timed with synchronization
like VulkanBench. Usage: python3 torch_peer.py [gemm_n] [fused_n] [gemm dtypes, default f32,f16,bf16]"""
import statistics
import sys
import time

import torch


def median_seconds(work, warm=20, reps=31):
    for _ in range(warm):
        work()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        work()
        torch.cuda.synchronize()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    m = int(sys.argv[2]) if len(sys.argv) > 2 else 16 << 20
    dtypes = (sys.argv[3] if len(sys.argv) > 3 else "f32,f16,bf16").split(",")
    torch.backends.cuda.matmul.allow_tf32 = False
    # cuBLAS may accumulate f16 products in f16 when allowed; the Vulkan GEMM accumulates in f32.
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)
    names = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
    for d in dtypes:
        a = (torch.rand(n, n, device="cuda") - 0.5).to(names[d])
        b = (torch.rand(n, n, device="cuda") - 0.5).to(names[d])
        s = median_seconds(lambda: a @ b)
        print(f"torch gemm {d} {n}x{n}: median {s * 1e3:.3f} ms, {2.0 * n ** 3 / s * 1e-9:.1f} GFLOP/s", flush=True)
    x, y, z = (torch.rand(m, device="cuda") for _ in range(3))
    s = median_seconds(lambda: x * y + z)
    print(f"torch a*b+c f32[{m}] (two kernels): median {s * 1e3:.3f} ms, {16.0 * m / s * 1e-9:.1f} GB/s", flush=True)
    s = median_seconds(lambda: torch.addcmul(z, x, y))
    print(f"torch addcmul f32[{m}] (one kernel): median {s * 1e3:.3f} ms, {16.0 * m / s * 1e-9:.1f} GB/s", flush=True)
    small = torch.arange(1, 9, dtype=torch.float32, device="cuda")
    ops = 2000

    def dispatches():
        for _ in range(ops):
            small + small

    s = median_seconds(dispatches, warm=1, reps=5)
    print(f"torch eager dispatch (add f32[8], {ops} in a row, then synchronize): {s / ops * 1e6:.2f} us/op", flush=True)


if __name__ == "__main__":
    main()
