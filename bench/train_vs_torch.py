#!/usr/bin/env python3
"""`jburn train` beside the same training in PyTorch (bench/train_torch.py), alternating runs (JBurn, torch, JBurn,
torch, ...) so that one noisy phase of a shared machine cannot decide the ratio. For each run: the median training
samples/s over epochs 2.. (epoch 1 warms up JIT compilers and caches), the test accuracy, the wall time and the peak
RSS (from /usr/bin/time when present). Prints a Markdown table and the median of the per-round ratios.
Usage: bench/train_vs_torch.py [--model mlp|cnn] [--epochs 5] [--rounds 2] [--limit N] [--baseline DIR]   (run from the
repository root after ./jburn has built once). --baseline DIR: a saved earlier build (a copy of cli/target/lib with the
cli jar beside it) that also runs in every round (baseline, torch, this build), for before/after ratios in one sitting."""
import argparse, csv, glob, json, os, re, shutil, statistics, subprocess, sys, tempfile

p = argparse.ArgumentParser()
p.add_argument("--model", default="mlp")
p.add_argument("--epochs", type=int, default=5)
p.add_argument("--rounds", type=int, default=2)
p.add_argument("--limit", type=int, default=0)
p.add_argument("--baseline", default="")
# OPENBLAS_CORETYPE for torch (its GEMMs are OpenBLAS's on Debian's build): for a CPU newer than the OpenBLAS build,
# which then runs its SSE3 "Prescott" kernels (OpenBLAS 0.3.21 on an Emerald Rapids Xeon), name its AVX-512 core: SkylakeX
p.add_argument("--openblas-core", default="")
a = p.parse_args()
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
java = os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64") + "/bin/java"
cp = root + "/cli/target/cli-0.1.0-SNAPSHOT.jar:" + root + "/cli/target/lib/*"
common = ["--model", a.model, "--epochs", str(a.epochs)] + (["--limit", str(a.limit)] if a.limit else [])
timev = ["/usr/bin/time", "-v"] if os.path.exists("/usr/bin/time") else []

def rss(err):
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    return int(m.group(1)) / 1024 if m else float("nan")

def run_jburn(cp=cp):  # the JVM options of the ./jburn script
    out = tempfile.mkdtemp(prefix="jburn-bench-")
    cmd = timev + [java, "-XX:-UseProfiledLoopPredicate", "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-cp", cp,
                   "dev.jburn.cli.Main", "train", "--out", out] + common
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("jburn train failed:\n" + r.stdout + r.stderr)
    rows = list(csv.DictReader(open(out + "/history.csv")))
    shutil.rmtree(out, ignore_errors=True)
    sps = [float(x["samples_per_s"]) for x in rows]
    acc = float(re.search(r"test: loss [0-9.]+, accuracy ([0-9.]+)", r.stdout).group(1))
    wall = float(re.search(r"time: ([0-9.]+) s", r.stdout).group(1))
    return sps, acc, wall, rss(r.stderr)

def run_torch():
    env = dict(os.environ)
    env.pop("OPENBLAS_L2_SIZE", None)
    if a.openblas_core:
        env["OPENBLAS_CORETYPE"] = a.openblas_core
    cmd = timev + ["/usr/bin/python3", root + "/bench/train_torch.py"] + common
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit("train_torch.py failed:\n" + r.stdout + r.stderr)
    lines = [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
    sps = [l["samples_per_s"] for l in lines if "epoch" in l]
    end = [l for l in lines if "test_accuracy" in l][0]
    info = [l["info"] for l in lines if "info" in l][0] + ", OPENBLAS_CORETYPE=" + env.get("OPENBLAS_CORETYPE", "unset")
    return sps, end["test_accuracy"], end["wall_s"], rss(r.stderr), info

def steady(sps):
    return statistics.median(sps[1:]) if len(sps) > 1 else sps[0]

rows, ratios, info, before = [], [], "", []
for k in range(a.rounds):
    if a.baseline:  # baseline, torch, this build: torch between the two builds
        b = run_jburn(a.baseline + "/cli-0.1.0-SNAPSHOT.jar:" + a.baseline + "/*")
        t = run_torch()
        j = run_jburn()
    else:
        j = run_jburn()
        t = run_torch()
    info = t[4]
    ratio = steady(j[0]) / steady(t[0])
    ratios.append(ratio)
    rows.append((k + 1, steady(j[0]), steady(t[0]), ratio, j[1], t[1], j[2], t[2], j[3], t[3]))
    print("round %d: jburn %.0f samples/s, torch %.0f samples/s, ratio %.2f" % (k + 1, steady(j[0]), steady(t[0]), ratio), file=sys.stderr)
    if a.baseline:
        before.append((k + 1, steady(b[0]), steady(j[0]), steady(t[0]), steady(b[0]) / steady(t[0]), ratio, steady(j[0]) / steady(b[0])))

print("### jburn train vs PyTorch, model %s, %d epochs%s" % (a.model, a.epochs, ", first %d images" % a.limit if a.limit else ""))
print()
print("Peer: %s. Samples/s: median over epochs 2..%d of the training steps (validation excluded)." % (info, a.epochs))
print()
print("| round | JBurn samples/s | PyTorch samples/s | JBurn ÷ PyTorch | JBurn test acc | PyTorch test acc | JBurn wall s | PyTorch wall s | JBurn peak RSS MiB | PyTorch peak RSS MiB |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print("| %d | %.0f | %.0f | %.2f | %.4f | %.4f | %.1f | %.1f | %.0f | %.0f |" % r)
print()
print("Median ratio %.2f (range %.2f-%.2f over %d rounds)." % (statistics.median(ratios), min(ratios), max(ratios), len(ratios)))
if before:
    print()
    print("| round | baseline samples/s | this build samples/s | PyTorch samples/s | baseline ÷ PyTorch | this build ÷ PyTorch | this build ÷ baseline |")
    print("|---|---|---|---|---|---|---|")
    for r in before:
        print("| %d | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f |" % r)
    print()
    print("Median baseline ÷ PyTorch %.2f, this build ÷ PyTorch %.2f, this build ÷ baseline %.2f." % tuple(
        statistics.median(r[i] for r in before) for i in (4, 5, 6)))
