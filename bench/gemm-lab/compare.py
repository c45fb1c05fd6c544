#!/usr/bin/env python3
"""Two-thread f32 GEMM GFLOP/s of several JBurn builds (GemmWorker, one JVM each) and numpy, in alternating ~80 ms
bursts (order reversed every other round), each after a 0.25 s pause; prints GFLOP/s at the 25th percentile and the
median of each runtime's call times, with the range of the per-round medians.

    bench/gemm-lab/build.sh                       # compiles the lab classes into bench/gemm-lab/target/lab
    bench/gemm-lab/compare.py before=/abs/classes/dir after:-Djburn.gemm.kc=512=/abs/other/classes --numpy \
        --rounds 5 --shapes '256,256,256;128,784,256;784,128,256,at'

NAME[:JVMOPT+JVMOPT]=CLASSES: an engine-reference classes directory (absolute path). A shape is m,k,n[,at] (at: A
stored transposed). numpy runs with 2 OpenBLAS threads and OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE unset.
"""
import os, subprocess, sys, time, statistics
args = sys.argv[1:]
rounds = 6; shapes = ['256,256,256', '512,512,512', '1024,1024,1024', '2048,2048,2048', '128,784,256', '128,1600,128']
builds = []; use_numpy = False; props = {}
i = 0
while i < len(args):
    x = args[i]
    if x == '--numpy': use_numpy = True
    elif x == '--rounds': rounds = int(args[i + 1]); i += 1
    elif x == '--shapes': shapes = args[i + 1].split(';'); i += 1
    else:
        i_ = x.index('=/'); name, cls = x[:i_], x[i_ + 1:]
        opts = []
        if ':' in name and name.split(':')[1]:
            name, o = name.split(':', 1); opts = o.split('+')
        builds.append((name, cls, opts))
    i += 1
java = '/usr/lib/jvm/temurin-25-jdk-amd64/bin/java'
api = os.path.expanduser('~/.m2/repository/dev/jburn/engine-api/0.1.0-SNAPSHOT/engine-api-0.1.0-SNAPSHOT.jar')
NUMPY = r'''
import numpy as np, sys, time
np.random.seed(1)
mats = {}
for line in sys.stdin:
    w = line.split(); m, k, n, reps = map(int, w[:4]); at = len(w) > 4
    if (m, k, n, at) not in mats:
        a0 = (np.random.rand(k, m) * 2 - 1).astype(np.float32).T if at else (np.random.rand(m, k) * 2 - 1).astype(np.float32)
        mats[(m, k, n, at)] = (a0, (np.random.rand(k, n) * 2 - 1).astype(np.float32))
    a, b = mats[(m, k, n, at)]
    out = []
    for _ in range(reps):
        t = time.perf_counter_ns(); c = a @ b; out.append(time.perf_counter_ns() - t)
    print(' '.join(map(str, out)), flush=True)
'''
workers = {}
for name, cls, opts in builds:
    workers[name] = subprocess.Popen([java, '--add-modules', 'jdk.incubator.vector', '--enable-native-access=ALL-UNNAMED'] + opts +
                                     ['-cp', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'target', 'lab') + ':' + cls + ':' + api, 'dev.jburn.reference.GemmWorker'],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
if use_numpy:
    env = dict(os.environ); env.pop('OPENBLAS_CORETYPE', None); env.pop('OPENBLAS_L2_SIZE', None); env['OPENBLAS_NUM_THREADS'] = '2'
    workers['numpy'] = subprocess.Popen(['/usr/bin/python3', '-c', NUMPY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

def ask(w, shape, reps):
    time.sleep(0.25)
    parts = shape.split(',')
    w.stdin.write(' '.join(parts[:3]) + f" {reps} " + ' '.join(parts[3:]) + "\n"); w.stdin.flush()
    return [int(x) for x in w.stdout.readline().split()]

def flops(shape):
    m, k, n = map(int, shape.split(',')[:3]); return 2.0 * m * k * n

for shape in shapes:
    f = flops(shape)
    reps = max(3, int(0.25e9 * 0.3 / (f / 300e9 * 1e9) * 1)) if f < 1e10 else 4
    reps = max(4, int(0.08 / (f / 300e9)))   # ~80 ms bursts
    for name, w in workers.items():  # warm-up: ~3 s each (JIT)
        t0 = time.time()
        while time.time() - t0 < (4 if name != 'numpy' else 0.5): ask(w, shape, reps)
    times = {name: [] for name in workers}
    per_round = {name: [] for name in workers}
    order = list(workers)
    for r in range(rounds):
        for name in (order if r % 2 == 0 else order[::-1]):
            t = ask(workers[name], shape, reps)
            times[name] += t; per_round[name].append(statistics.median(t))
    def q(xs, p): xs = sorted(xs); return xs[int(p * (len(xs) - 1))]
    line = f"{shape:>16}"
    for name in workers:
        t = times[name]
        line += f" | {name}: p25 {f / q(t, 0.25):6.1f} med {f / q(t, 0.5):6.1f} (n={len(t)}, rounds {min(f / x for x in per_round[name]):.0f}-{max(f / x for x in per_round[name]):.0f})"
    print(line, flush=True)
for w in workers.values(): w.stdin.close()
