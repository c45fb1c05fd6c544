# PeerBench's Python harness: PeerBench prepends the settings (PEER, REPS, WARMUP, MIN_SAMPLE) and appends one
# bench(name, make) call per workload. Every line it prints on stdout is one JSON object: first {"info": ...}
# (or {"fatal": ...} when the peer cannot run), then one {"name": ...} per workload with the median seconds per call.
import json
import math
import os
import statistics
import sys
import time


def emit(obj):
    print(json.dumps(obj), flush=True)


def loaded_libraries(words):
    """Real paths of the shared libraries this process has mapped whose file name contains one of words."""
    found = []
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                parts = line.split()
                if len(parts) >= 6 and parts[-1].startswith("/"):
                    path = os.path.realpath(parts[-1])
                    base = os.path.basename(path).lower()
                    if any(w in base for w in words) and path not in found:
                        found.append(path)
    except OSError:
        pass
    return found


BLAS_WORDS = ("blas", "lapack", "mkl", "blis", "dnnl", "gomp", "iomp")

try:
    import numpy as np
    from numpy.lib.stride_tricks import sliding_window_view
    if PEER == "torch":
        import torch
        import torch.nn.functional as F
        torch.set_num_threads(2)
        torch.set_grad_enabled(False)
except Exception as e:  # an import error is a skipped peer, not a crash
    emit({"fatal": "%s import failed: %s: %s" % (PEER, type(e).__name__, e)})
    sys.exit(3)


def describe():
    if PEER == "numpy":
        np.dot(np.ones((64, 64), np.float32), np.ones((64, 64), np.float32))  # make sure BLAS is mapped
        libs = loaded_libraries(BLAS_WORDS)
        return "numpy %s, python %s; BLAS/LAPACK loaded: %s; OPENBLAS_NUM_THREADS=%s" % (
            np.__version__, sys.version.split()[0], ", ".join(libs) or "none found",
            os.environ.get("OPENBLAS_NUM_THREADS", "unset"))
    config = torch.__config__.show()
    blas = [p.split("=", 1)[1] for p in config.replace(",", "\n").split() if p.startswith(("BLAS_INFO=", "LAPACK_INFO="))]
    a = torch.ones(64, 64)
    a @ a  # make sure BLAS is mapped
    libs = loaded_libraries(BLAS_WORDS)
    return "torch %s (BLAS_INFO/LAPACK_INFO=%s, mkldnn=%s), %d threads; loaded: %s" % (
        torch.__version__, "/".join(blas) or "?", torch.backends.mkldnn.is_available(), torch.get_num_threads(),
        ", ".join(libs) or "none found")


def npy(value):
    """A numpy view of a numpy array or a torch tensor, for the checks (which are shared by both peers)."""
    if PEER == "torch" and isinstance(value, torch.Tensor):
        return value.numpy()
    return np.asarray(value)


def bench(name, make):
    """Warm-up calls (at least WARMUP, and at least 2 * MIN_SAMPLE s), then REPS samples of `inner` calls each
    (inner chosen so that a sample lasts >= MIN_SAMPLE s): the same procedure as the Java side's Timing.measure."""
    try:
        run, check = make()
        result = None
        last = warm = 0.0
        calls = 0
        while calls < max(1, WARMUP) or warm < 2 * MIN_SAMPLE:
            result = None  # let the previous result go before the next call, as the Java side does
            t0 = time.perf_counter()
            result = run()
            last = time.perf_counter() - t0
            warm += last
            calls += 1
        inner = max(1, min(100000, int(math.ceil(MIN_SAMPLE / max(last, 1e-9)))))
        samples = []
        for _ in range(REPS):
            t0 = time.perf_counter()
            for _ in range(inner):
                result = run()
            samples.append((time.perf_counter() - t0) / inner)
        emit({"name": name, "median_s": statistics.median(samples), "samples": samples, "inner": inner,
              "check": check(result)})
    except Exception as e:
        emit({"name": name, "error": "%s: %s" % (type(e).__name__, e)})


def close_to(got, want, scale, tol, what):
    """'ok' when |got - want| <= tol * scale, else a line saying where it is not."""
    if not (abs(float(got) - float(want)) <= tol * float(scale)):
        return "FAIL %s: got %r, want %r (tolerance %.3g)" % (what, float(got), float(want), tol * float(scale))
    return "ok"


def summarize(results):
    """The first failed check of results, or 'ok'."""
    fails = [r for r in results if r != "ok"]
    return fails[0] if fails else "ok"


emit({"info": describe()})
