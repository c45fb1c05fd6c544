package dev.jburn.reference;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cpu engine gives the same bits whether C2 has compiled its kernels or the interpreter runs them: the
 * {@link JitIndependenceProbe} workload here, after enough rounds for C2 to compile the loops, against the same
 * workload in a child JVM with {@code -Xint} (the Vector API's pure-Java fallbacks). A kernel using
 * {@code lanewise(EXP/TANH/...)} or {@code reduceLanes(ADD)} fails it: the CI of 2026-12-07 saw an F64 tanh give two
 * results in one run, depending on JIT timing.
 */
class JitIndependenceTest {
    @Test
    void compiledAndInterpretedRunsGiveTheSameBits() throws IOException, InterruptedException {
        Map<String, Long> compiled = null;
        for (int round = 0; round < 1000; round++) compiled = JitIndependenceProbe.run();

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xint", "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                JitIndependenceProbe.class.getName()));
        // Output to a file, so that a hung child cannot block the read: it is killed after the limit instead.
        Path log = Files.createTempFile("jit-independence", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("the -Xint probe did not finish in 300 s:\n" + Files.readString(log));
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), "the -Xint probe failed:\n" + output);
            compare(compiled, output);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static void compare(Map<String, Long> compiled, String output) {
        Map<String, Long> interpreted = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            // The probe's lines only ("exp f32=1a2b..."): the JVM may print warnings of its own.
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("([A-Za-z0-9 ]+)=([0-9a-f]{1,16})").matcher(line.strip());
            if (m.matches()) interpreted.put(m.group(1), Long.parseUnsignedLong(m.group(2), 16));
        }
        assertEquals(compiled.keySet(), interpreted.keySet(), "probe output:\n" + output);
        List<String> differ = new ArrayList<>();
        for (var e : compiled.entrySet()) if (!e.getValue().equals(interpreted.get(e.getKey()))) differ.add(e.getKey());
        assertTrue(differ.isEmpty(), "results that differ between C2-compiled and interpreted (-Xint) runs: " + differ);
    }
}
