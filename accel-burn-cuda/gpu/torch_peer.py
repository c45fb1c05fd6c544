"""The torch side of accel-burn-cuda's bench (run by run-h200.sh beside CudaBench): the same work,
timed the same way (median of samples after warm-up; a sample runs the work back to back for
about 20 ms, then torch.cuda.synchronize()), printed as one table. Usage: python3 torch_peer.py [quick]"""
import statistics
import sys
import time

import torch

quick = len(sys.argv) > 1 and sys.argv[1] == "quick"
rows = []


def median_seconds(warm, reps, work):
    """Median seconds per run: each sample runs work back to back for about 20 ms, then synchronizes."""
    for _ in range(warm):
        work()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    work()
    torch.cuda.synchronize()
    one = max(1e-7, time.perf_counter() - t0)
    inner = int(max(1, min(1000, -(-0.02 // one))))
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            work()
        torch.cuda.synchronize()
        ts.append((time.perf_counter() - t0) / inner)
    return statistics.median(ts)


def row(work, value, unit):
    rows.append((work, value, unit))
    print(f"  {work}: {value:.2f} {unit}", flush=True)


def gemm(name, n, dtype, tf32):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    g = torch.Generator(device="cuda").manual_seed(1)
    a = (torch.rand(n, n, device="cuda", generator=g) - 0.5).to(dtype)
    b = (torch.rand(n, n, device="cuda", generator=g) - 0.5).to(dtype)
    s = median_seconds(2 if quick else 3, 5 if quick else 10, lambda: a @ b)
    row(f"{name} {n}", 2.0 * n ** 3 / s * 1e-12, "TFLOP/s")
    torch.backends.cuda.matmul.allow_tf32 = False


def chain(x):
    return torch.exp(x * 0.5 + 1.0) * x


def main():
    print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)
    for n in ([4096] if quick else [4096, 8192]):
        gemm("sgemm f32", n, torch.float32, False)
        gemm("tf32", n, torch.float32, True)
        gemm("bf16 gemm (f32 acc)", n, torch.bfloat16, False)
    n = 64 << 20
    x = torch.rand(n, device="cuda") - 0.5
    reps = 5 if quick else 10
    s = median_seconds(3, reps, lambda: chain(x))
    row("eager x*0.5+1 |> exp |> *x, 64M f32", 2.0 * n * 4 / s * 1e-9, "GB/s (read+write)")
    try:
        compiled = torch.compile(chain)
        s = median_seconds(3, reps, lambda: compiled(x))
        row("torch.compile same chain, 64M f32", 2.0 * n * 4 / s * 1e-9, "GB/s (read+write)")
    except Exception as e:  # torch.compile needs Triton; report and go on
        print("torch.compile unavailable:", e)
    y = torch.empty_like(x)
    s = median_seconds(3, reps, lambda: y.copy_(x))
    row("device-to-device copy 256 MiB", 2.0 * n * 4 / s * 1e-9, "GB/s (read+write)")
    a = torch.arange(8, dtype=torch.float32, device="cuda")
    ops = 2000 if quick else 20000

    def adds():
        for _ in range(ops):
            a + a
    s = median_seconds(1, 5, adds)
    row("eager add of 8 f32 (dispatch)", s / ops * 1e6, "us/op")
    mlp_step(quick)
    print()
    print(f"{'work (torch ' + torch.__version__ + ')':40s} {'median':>14s}  unit")
    for w, v, u in rows:
        print(f"{w:40s} {v:14.2f}  {u}")


def mlp_step(quick):
    """The step MlpTrainStep times: 784-256-10 MLP, ReLU, softmax cross-entropy, batch 128, SGD lr 0.1."""
    g = torch.Generator(device="cuda").manual_seed(11)
    w1 = (torch.randn(784, 256, device="cuda", generator=g) * 0.05).requires_grad_()
    b1 = torch.zeros(256, device="cuda", requires_grad=True)
    w2 = (torch.randn(256, 10, device="cuda", generator=g) * 0.05).requires_grad_()
    b2 = torch.zeros(10, device="cuda", requires_grad=True)
    x = torch.rand(128, 784, device="cuda", generator=g)
    y = torch.randint(0, 10, (128,), device="cuda", generator=g)
    params = [w1, b1, w2, b2]

    def step():
        loss = torch.nn.functional.cross_entropy(torch.relu(x @ w1 + b1) @ w2 + b2, y)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, gr in zip(params, grads):
                p -= 0.1 * gr
        return loss

    s = median_seconds(20, 5 if quick else 20, step)
    row("mlp train step 784-256-10 b128", s * 1e3, "ms/step")


if __name__ == "__main__":
    main()
