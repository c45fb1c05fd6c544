package dev.jburn.bench.peer;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The DJL side, in the worker JVM that {@link DjlPeer} starts: prints the same JSON lines as {@code harness.py}. */
public final class DjlWorker {
    private DjlWorker() {}

    public static void run(List<PeerWorkload> workloads, Plan plan, PrintStream out) {
        Engine engine;
        try {
            engine = Engine.getEngine("PyTorch");
            engine.setRandomSeed(7);
        } catch (Throwable e) { // no engine jar, no native library, offline refusal: all mean "skip this peer"
            out.println("{\"fatal\": " + Json.quote("DJL PyTorch engine unavailable (it runs offline: pytorch-engine,"
                    + " pytorch-jni and pytorch-native-cpu:linux-x86_64 of matching versions must be on the class path): "
                    + e) + "}");
            return;
        }
        out.println("{\"info\": " + Json.quote(describe(engine)) + "}");
        try (NDManager manager = engine.newBaseManager(Device.cpu())) {
            for (PeerWorkload w : workloads) {
                String line;
                try (NDManager sub = manager.newSubManager(); TimedCase<NDArray> c = w.djl(sub)) {
                    Timing t = Timing.measure(c, plan);
                    line = "{\"name\": " + Json.quote(w.name()) + ", \"median_s\": " + t.medianSeconds()
                            + ", \"samples\": " + samples(t) + ", \"inner\": " + t.inner() + ", \"check\": "
                            + Json.quote(t.check()) + "}";
                } catch (PeerUnavailable e) {
                    line = "{\"name\": " + Json.quote(w.name()) + ", \"unavailable\": " + Json.quote(e.getMessage()) + "}";
                } catch (RuntimeException e) {
                    line = "{\"name\": " + Json.quote(w.name()) + ", \"error\": " + Json.quote(e.toString()) + "}";
                }
                out.println(line);
                out.flush();
            }
        }
    }

    private static String samples(Timing t) {
        StringBuilder b = new StringBuilder("[");
        for (double s : t.samples()) b.append(b.length() > 1 ? ", " : "").append(s);
        return b.append(']').toString();
    }

    private static String describe(Engine engine) {
        String threads = "?";
        try { // the engine module is runtime scope only, so ask it reflectively
            Class<?> jni = Class.forName("ai.djl.pytorch.jni.JniUtils");
            threads = jni.getMethod("getNumThreads").invoke(null) + " intra-op / "
                    + jni.getMethod("getNumInteropThreads").invoke(null) + " inter-op";
        } catch (ReflectiveOperationException | LinkageError e) {
            threads = "unknown (" + e + ")";
        }
        return "DJL " + Engine.getDjlVersion() + ", " + engine.getEngineName() + " " + engine.getVersion()
                + " CPU (official libtorch build: MKL linked in for BLAS, oneDNN for conv), " + threads
                + " threads, offline=" + System.getProperty("ai.djl.offline") + "; loaded: "
                + String.join(", ", loaded("torch", "c10", "mkl", "gomp", "dnnl"));
    }

    /** Real paths of mapped libraries whose file name contains one of {@code words} (Linux). */
    static Set<String> loaded(String... words) {
        Set<String> found = new LinkedHashSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                int slash = line.indexOf('/');
                if (slash < 0) continue;
                Path p = Path.of(line.substring(slash));
                String name = p.getFileName().toString();
                for (String w : words) {
                    if (name.contains(w) && name.contains(".so")) {
                        found.add(p.toRealPath().toString());
                        break;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            found.add("(cannot read /proc/self/maps: " + e.getMessage() + ")");
        }
        return found;
    }
}
