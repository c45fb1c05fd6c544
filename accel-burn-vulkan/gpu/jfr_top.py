"""Where a JFR recording's CPU samples fall: the top methods by self and by inclusive samples.
Usage: jfr print --json --events jdk.ExecutionSample rec.jfr > samples.json; python3 jfr_top.py samples.json [self_n] [incl_n]
(run-h200.sh's BENCH_JAVA_OPTS can record the benchmark on the GPU machine, whose runtime has jdk.jfr.)"""
import json, sys, collections
d = json.load(open(sys.argv[1]))
evs = d["recording"]["events"]
top = collections.Counter(); incl = collections.Counter(); n = 0
for e in evs:
    st = e["values"].get("stackTrace")
    if not st: continue
    frames = st["frames"]
    if not frames: continue
    n += 1
    def name(f):
        m = f["method"]; return m["type"]["name"].split(".")[-1] + "." + m["name"]
    top[name(frames[0])] += 1
    seen = set()
    for f in frames:
        k = name(f)
        if k not in seen:
            incl[k] += 1; seen.add(k)
print("samples", n)
print("-- self"); [print(f"{c:6d} {k}") for k, c in top.most_common(int(sys.argv[2]) if len(sys.argv) > 2 else 25)]
print("-- inclusive"); [print(f"{c:6d} {k}") for k, c in incl.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 40)]
