"""torch's max_pool2d forward and backward on the small CNN's pooling shapes at batch 1024 (channels-last, 2x2, stride 2),
the peer of dev.jburn.cuda.WindowBench: median us per call over back-to-back calls, synchronized once per sample."""
import statistics, time, torch

def timed(fn, reps=15, inner=20):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner): fn()
        torch.cuda.synchronize()
        t.append((time.perf_counter() - t0) / inner * 1e6)
    return statistics.median(t), min(t)

for n, h, c in ((1024, 26, 32), (1024, 11, 64)):
    x = torch.rand(n, c, h, h, device="cuda").to(memory_format=torch.channels_last).requires_grad_(True)
    y, idx = torch.nn.functional.max_pool2d(x, 2, 2, return_indices=True)
    g = torch.rand_like(y)
    fwd = timed(lambda: torch.nn.functional.max_pool2d(x, 2, 2))
    bwd = timed(lambda: torch.ops.aten.max_pool2d_with_indices_backward(g, x, [2, 2], [2, 2], [0, 0], [1, 1], False, idx))
    print(f"torch max_pool2d [{n},{h},{h},{c}] forward {fwd[0]:9.1f} us (min {fwd[1]:.1f})")
    print(f"torch max_pool2d [{n},{h},{h},{c}] backward (from saved indices) {bwd[0]:9.1f} us (min {bwd[1]:.1f})")
