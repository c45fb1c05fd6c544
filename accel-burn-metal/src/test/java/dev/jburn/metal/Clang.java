package dev.jburn.metal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The host clang that checks and runs generated MSL as C++17, with the {@code metal_stdlib} shim
 * (a test resource) on its include path. Tests skip where clang is missing; CI installs it.
 */
final class Clang {
    /** The compiler: {@code -Djburn.metal.clang=...}, else {@code clang++}. */
    static final String EXE = System.getProperty("jburn.metal.clang", "clang++");

    private Clang() {}

    /** Whether {@link #EXE} runs here. */
    static boolean present() {
        try {
            Process p = new ProcessBuilder(EXE, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** The message tests skip with. */
    static String missing() {
        return EXE + " not found: the MSL checks need clang (apt-get install -y clang; .ci/run installs it)";
    }

    /** A folder holding the shim as {@code metal_stdlib}, so {@code #include <metal_stdlib>} finds it. */
    static Path shimDir(Path work) throws IOException {
        Path dir = Files.createDirectories(work.resolve("shim"));
        try (InputStream in = Clang.class.getResourceAsStream("/msl-shim/metal_stdlib")) {
            if (in == null) throw new IOException("test resource /msl-shim/metal_stdlib missing");
            Files.write(dir.resolve("metal_stdlib"), in.readAllBytes());
        }
        return dir;
    }

    /** The result of one compiler run. */
    record Result(int exit, String log) {
        boolean ok() { return exit == 0; }
    }

    /** Runs {@code clang++ -x c++ -std=c++17 -I shim <flags> src}. */
    static Result run(Path shim, Path src, String... flags) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(EXE, "-x", "c++", "-std=c++17", "-I", shim.toString(), "-Wno-unknown-attributes"));
        cmd.addAll(List.of(flags));
        cmd.add(src.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return new Result(-1, "clang timed out");
        }
        return new Result(p.exitValue(), new String(out));
    }

    /** Deletes {@code dir} and what is under it. */
    static void delete(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) return;
        try (var files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }
}
