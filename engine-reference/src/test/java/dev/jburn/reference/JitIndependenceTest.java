package dev.jburn.reference;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the -Xint probe did not finish");
        assertEquals(0, p.exitValue(), "the -Xint probe failed:\n" + output);
        Map<String, Long> interpreted = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("WARNING")) interpreted.put(line.substring(0, eq), Long.parseUnsignedLong(line.substring(eq + 1).trim(), 16));
        }
        assertEquals(compiled.keySet(), interpreted.keySet(), "probe output:\n" + output);
        List<String> differ = new ArrayList<>();
        for (var e : compiled.entrySet()) if (!e.getValue().equals(interpreted.get(e.getKey()))) differ.add(e.getKey());
        assertTrue(differ.isEmpty(), "results that differ between C2-compiled and interpreted (-Xint) runs: " + differ);
    }
}
