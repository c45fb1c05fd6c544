package dev.jburn.kernels;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@code glslangValidator} over many generated compute shaders, one process per core at a time (the
 * tests that check GLSL spent their time waiting on one process after another).
 */
final class Glslang {
    private Glslang() {}

    /** Whether {@code glslangValidator} is on the {@code PATH}. */
    static boolean installed() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "glslangValidator"))) return true;
        }
        return false;
    }

    /**
     * Compiles each of {@code shaders} for Vulkan 1.2 (into {@code <shader>.spv}); returns a failure for each
     * that did not compile (the compiler's log, then the source), in the order given.
     */
    static List<String> failures(List<Path> shaders) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        try {
            List<Future<String>> results = new ArrayList<>();
            for (Path p : shaders) results.add(pool.submit(() -> compile(p)));
            List<String> failures = new ArrayList<>();
            for (Future<String> r : results) if (r.get() != null) failures.add(r.get());
            return failures;
        } finally {
            pool.shutdownNow();
        }
    }

    private static String compile(Path shader) throws Exception {
        Process proc = new ProcessBuilder("glslangValidator", "--target-env", "vulkan1.2", "-o", shader + ".spv", shader.toString())
                .redirectErrorStream(true).start();
        String log = new String(proc.getInputStream().readAllBytes());
        if (!proc.waitFor(60, TimeUnit.SECONDS)) {
            proc.destroyForcibly();
            return "glslangValidator timed out on " + shader + "\n" + Files.readString(shader);
        }
        return proc.exitValue() == 0 ? null : log + "\n" + Files.readString(shader);
    }
}
