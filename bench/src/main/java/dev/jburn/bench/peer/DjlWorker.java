package dev.jburn.bench.peer;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;

/** The DJL side, in the worker JVM that {@link DjlPeer} starts: the same command loop as {@code harness.py}'s. */
public final class DjlWorker {
    private DjlWorker() {}

    /** Answers {@link ChildSession}'s commands on {@code in} until it ends. */
    public static void run(List<PeerWorkload> workloads, Plan plan, BufferedReader in, PrintStream out)
            throws IOException {
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
        out.flush();
        Map<String, PeerWorkload> byName = new HashMap<>();
        for (PeerWorkload w : workloads) byName.put(w.name(), w);
        try (NDManager manager = engine.newBaseManager(Device.cpu())) {
            NDManager sub = null;
            WarmCase<NDArray> warm = null;
            for (String line; (line = in.readLine()) != null; ) {
                String command = line.strip(), arg = "";
                int space = command.indexOf(' ');
                if (space > 0) {
                    arg = command.substring(space + 1);
                    command = command.substring(0, space);
                }
                String answer;
                try {
                    switch (command) {
                        case "prepare" -> {
                            if (sub != null) sub.close();
                            sub = manager.newSubManager(); // frees the workload's arrays at finish
                            warm = null;
                            try {
                                warm = WarmCase.warmUp(byName.get(arg).djl(sub), plan);
                                answer = "{\"name\": " + Json.quote(arg) + ", \"inner\": " + warm.inner() + "}";
                            } catch (PeerUnavailable e) {
                                answer = "{\"name\": " + Json.quote(arg) + ", \"unavailable\": "
                                        + Json.quote(e.getMessage()) + "}";
                            }
                        }
                        case "burst" -> answer = "{\"samples\": " + Arrays.toString(warm.burst(Integer.parseInt(arg)))
                                + "}";
                        case "finish" -> {
                            answer = "{\"check\": " + Json.quote(warm.finish()) + "}";
                            sub.close();
                            sub = null;
                            warm = null;
                        }
                        default -> answer = "{\"error\": " + Json.quote("unknown command " + line) + "}";
                    }
                } catch (RuntimeException e) {
                    answer = "{\"name\": " + Json.quote(arg) + ", \"error\": " + Json.quote(e.toString()) + "}";
                }
                out.println(answer);
                out.flush();
            }
            if (sub != null) sub.close();
        }
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
