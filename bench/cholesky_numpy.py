#!/usr/bin/env python3
"""NumPy (LAPACK dpotrf/spotrf) Cholesky timings to set beside CholeskyBench: mean ms per call, same matrices (B·Bᵀ + n·I)."""
import sys
import timeit

import numpy as np

for n in (256, 512, 1024):
    rng = np.random.default_rng(7)
    b = rng.uniform(-1, 1, (n, n))
    a64 = b @ b.T + n * np.eye(n)
    for name, a in (("F64", a64), ("F32", a64.astype(np.float32))):
        np.linalg.cholesky(a)  # warm up
        reps = max(3, int(2000 / (n / 256) ** 3))
        runs = timeit.repeat(lambda: np.linalg.cholesky(a), number=reps, repeat=5)
        best = min(runs) / reps * 1e3
        mean = sum(runs) / len(runs) / reps * 1e3
        print(f"numpy cholesky n={n:5d} {name}: mean {mean:8.3f} ms  best {best:8.3f} ms", flush=True)
sys.exit(0)
