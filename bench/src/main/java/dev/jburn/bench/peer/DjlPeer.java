package dev.jburn.bench.peer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The DJL peer, run in a child JVM (so a native crash or a missing library skips the column instead of ending the
 * run, and the JVM under test holds no libtorch): the same java, class path and PeerBench arguments plus
 * {@code --djl-worker}, which makes it run {@link DjlWorker}.
 *
 * <p>It runs offline: the PyTorch native library comes from the {@code ai.djl.pytorch:pytorch-native-cpu} jar
 * (classifier {@code linux-x86_64}) and the JNI bridge from {@code ai.djl.pytorch:pytorch-jni}, both resolved by Maven
 * at build time; DJL extracts them into its cache ({@code ~/.djl.ai/pytorch/}, or {@code $DJL_CACHE_DIR}) and,
 * with {@code ai.djl.offline=true}, fails instead of downloading when they do not match. Telemetry is off.
 */
public final class DjlPeer {
    private DjlPeer() {}

    /** System properties of the worker JVM. */
    static final List<String> WORKER_PROPERTIES = List.of(
            "-Dai.djl.offline=true",
            "-Dai.djl.pytorch.num_threads=2",
            "-Dai.djl.pytorch.num_interop_threads=1",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    public static PeerSession start(List<String> benchArgs, Path workDir) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        command.addAll(WORKER_PROPERTIES);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.jburn.bench.PeerBench", "--djl-worker"));
        command.addAll(benchArgs);
        Map<String, String> env = Map.of("OPT_OUT_TRACKING", "true", "DJL_OFFLINE", "true", "OMP_NUM_THREADS", "2",
                "MKL_NUM_THREADS", "2");
        return ChildSession.start("djl", command, env, List.of(), workDir.resolve("peer_djl.log"), Map.of());
    }
}
