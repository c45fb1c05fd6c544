# PeerBench's Python harness: PeerBench prepends the settings (PEER, WARMUP, MIN_SAMPLE) and appends one
# register(name, make) call per workload, then serve(). Every line it prints on stdout is one JSON object: first
# {"info": ...} (or {"fatal": ...} when the peer cannot run), then one answer per command read on stdin
# (ChildSession's protocol: "prepare NAME", "burst N", "finish"; end of input ends the process).
import json
import math
import os
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


def openblas_core():
    """Which kernels OpenBLAS runs: its core name (it honours OPENBLAS_CORETYPE when set), and that variable."""
    libs = loaded_libraries(("openblas",))
    core = "no OpenBLAS loaded"
    if libs:
        try:
            import ctypes
            lib = ctypes.CDLL(libs[0])
            lib.openblas_get_corename.restype = ctypes.c_char_p
            core = lib.openblas_get_corename().decode()
        except Exception as e:  # another BLAS, or an OpenBLAS without the call
            core = "unknown (%s)" % e
    return "OpenBLAS core %s (OPENBLAS_CORETYPE=%s, OPENBLAS_L2_SIZE=%s)" % (
        core, os.environ.get("OPENBLAS_CORETYPE", "unset"), os.environ.get("OPENBLAS_L2_SIZE", "unset"))


def describe():
    if PEER == "numpy":
        np.dot(np.ones((64, 64), np.float32), np.ones((64, 64), np.float32))  # make sure BLAS is mapped
        libs = loaded_libraries(BLAS_WORDS)
        return "numpy %s, python %s; BLAS/LAPACK loaded: %s; OPENBLAS_NUM_THREADS=%s; %s" % (
            np.__version__, sys.version.split()[0], ", ".join(libs) or "none found",
            os.environ.get("OPENBLAS_NUM_THREADS", "unset"), openblas_core())
    config = torch.__config__.show()
    blas = [p.split("=", 1)[1] for p in config.replace(",", "\n").split() if p.startswith(("BLAS_INFO=", "LAPACK_INFO="))]
    a = torch.ones(64, 64)
    a @ a  # make sure BLAS is mapped
    libs = loaded_libraries(BLAS_WORDS)
    return "torch %s (BLAS_INFO/LAPACK_INFO=%s, mkldnn=%s), %d threads; loaded: %s; %s" % (
        torch.__version__, "/".join(blas) or "?", torch.backends.mkldnn.is_available(), torch.get_num_threads(),
        ", ".join(libs) or "none found", openblas_core())


def npy(value):
    """A numpy view of a numpy array or a torch tensor, for the checks (which are shared by both peers)."""
    if PEER == "torch" and isinstance(value, torch.Tensor):
        return value.numpy()
    return np.asarray(value)


WORKLOADS = {}


def register(name, make):
    WORKLOADS[name] = make


class Prepared:
    """One workload being timed in bursts: warm-up calls (at least WARMUP, and at least 2 * MIN_SAMPLE s), whose
    last call picks `inner` so that a sample lasts >= MIN_SAMPLE s; then bursts of samples; then the check. The same
    procedure as the Java side's WarmCase."""

    def __init__(self, make):
        self.run, self.check = make()
        self.result = None
        last = warm = 0.0
        calls = 0
        while calls < max(1, WARMUP) or warm < 2 * MIN_SAMPLE:
            self.result = None  # let the previous result go before the next call, as the Java side does
            t0 = time.perf_counter()
            self.result = self.run()
            last = time.perf_counter() - t0
            warm += last
            calls += 1
        self.inner = max(1, min(100000, int(math.ceil(MIN_SAMPLE / max(last, 1e-9)))))

    def burst(self, reps):
        samples = []
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(self.inner):
                self.result = self.run()
            samples.append((time.perf_counter() - t0) / self.inner)
        return samples


def serve():
    prepared = None
    for line in sys.stdin:
        command, _, arg = line.strip().partition(" ")
        try:
            if command == "prepare":
                prepared = None
                prepared = Prepared(WORKLOADS[arg])
                emit({"name": arg, "inner": prepared.inner})
            elif command == "burst":
                emit({"samples": prepared.burst(int(arg))})
            elif command == "finish":
                check = prepared.check(prepared.result)
                prepared = None
                emit({"check": check})
            else:
                emit({"error": "unknown command %r" % line})
        except Exception as e:
            emit({"name": arg, "error": "%s: %s" % (type(e).__name__, e)})


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
