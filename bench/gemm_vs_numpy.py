#!/usr/bin/env python3
"""f32 n×n matmul GFLOP/s, JBurn (a.dot(b)) against numpy (a @ b), measured in alternating
short bursts so that both see the same load on a shared machine.

    bench/run.sh -l >/dev/null            # builds bench (and lists benchmarks)
    bench/gemm_vs_numpy.py [sizes] [rounds]   # e.g. 256,512,1024,2048 12
"""
import os, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
java = os.path.join(os.environ.get('JAVA_HOME', '/usr/lib/jvm/temurin-25-jdk-amd64'), 'bin', 'java')
sizes = [int(x) for x in (sys.argv[1] if len(sys.argv) > 1 else '256,512,1024,2048').split(',')]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 12

NUMPY_WORKER = r'''
import numpy as np, sys, time
mats = {}
for line in sys.stdin:
    n, reps = map(int, line.split())
    if n not in mats:
        mats[n] = (np.random.rand(n, n).astype(np.float32), np.random.rand(n, n).astype(np.float32))
    a, b = mats[n]
    best = 0
    for _ in range(reps):
        t = time.perf_counter(); c = a @ b; best = max(best, 2 * n**3 / (time.perf_counter() - t) / 1e9)
    print(best, flush=True)
'''

cp = os.path.join(here, 'target', 'classes') + os.pathsep + os.path.join(here, 'target', 'lib', '*')
jburn = subprocess.Popen([java, '--add-modules', 'jdk.incubator.vector', '--enable-native-access=ALL-UNNAMED', '-cp', cp,
                          'dev.jburn.bench.GemmPairWorker'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
numpy = subprocess.Popen(['/usr/bin/python3', '-c', NUMPY_WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def ask(worker, n, reps):
    # a pause lets the other runtime's idle threads go quiet first (OpenBLAS's spin ~0.1 s after a call, JBurn's GEMM
    # helpers 0.2 ms, JIT and GC threads): on 2026-12-02 numpy's 256^2 went from ~190 to ~290 GFLOP/s with it
    time.sleep(0.3)
    worker.stdin.write(f'{n} {reps}\n')
    worker.stdin.flush()
    return float(worker.stdout.readline())


for n in sizes:  # warm-up: JIT compilation, first-touch of buffers
    for _ in range(3 if n >= 1024 else 10):
        ask(jburn, n, max(1, int(4e9 / (2 * n ** 3))))
    ask(numpy, n, 3)
for n in sizes:
    reps = max(2, int(1.5e9 / (2 * n ** 3)))
    j, q = [], []
    for _ in range(rounds):
        j.append(ask(jburn, n, reps))
        q.append(ask(numpy, n, reps))
    ratios = [a / b for a, b in zip(j, q)]
    print(f'n={n:5d}  JBurn best {max(j):6.1f} median {statistics.median(j):6.1f} | '
          f'numpy best {max(q):6.1f} median {statistics.median(q):6.1f} GFLOP/s | '
          f'ratio of bests {max(j) / max(q):.2f}, median per-round ratio {statistics.median(ratios):.2f}', flush=True)
jburn.stdin.close()
numpy.stdin.close()
