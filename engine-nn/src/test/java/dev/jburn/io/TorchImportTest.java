package dev.jburn.io;

import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.layers.BatchNorm;
import dev.jburn.nn.layers.Conv;
import dev.jburn.nn.layers.Gru;
import dev.jburn.nn.layers.Lstm;
import dev.jburn.nn.layers.MultiHeadAttention;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * PyTorch modules' weights, written by {@code bench/torch_export.py} with torch itself, load into the matching
 * JBurn layers and give PyTorch's outputs within 1e-5. Skipped where {@code /usr/bin/python3 -c 'import torch'} fails.
 */
class TorchImportTest {
    @TempDir static Path dir;

    @BeforeAll
    static void export() throws Exception {
        export(dir, "linear", "conv", "batchnorm", "lstm", "gru", "attention");
    }

    /** Runs the export script for {@code cases} into {@code out}; skips the calling test class without torch. */
    static void export(Path out, String... cases) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "/usr/bin/python3 is not installed");
        Process probe = new ProcessBuilder("/usr/bin/python3", "-c", "import torch").redirectErrorStream(true).start();
        probe.getInputStream().readAllBytes();
        Assumptions.assumeTrue(probe.waitFor(120, TimeUnit.SECONDS) && probe.exitValue() == 0, "python3 cannot import torch");
        Path script = script();
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/python3", script.toString(), out.toString()));
        cmd.addAll(List.of(cases));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "torch_export.py did not finish");
        assertEquals(0, p.exitValue(), log);
    }

    /** bench/torch_export.py, from the module directory the tests run in (or the repository root). */
    static Path script() {
        for (Path p : List.of(Path.of("../bench/torch_export.py"), Path.of("bench/torch_export.py"))) if (Files.isRegularFile(p)) return p.toAbsolutePath();
        throw new AssertionError("bench/torch_export.py not found from " + Path.of("").toAbsolutePath());
    }

    /** Loads {@code name}.safetensors into {@code model} by {@code layers} and compares its output on the case's input with PyTorch's. */
    static void assertMatchesTorch(Path out, String name, Model model, Map<String, String> layers) {
        ModelState s = TorchImport.load(out.resolve(name + ".safetensors"), model, layers);
        Map<String, Tensor> io = SafeTensors.read(out.resolve(name + "-io.safetensors"));
        Tensor y = model.predict(s, io.get("x"));
        Tensor expected = io.get("y");
        assertEquals(expected.shape(), y.shape(), name);
        float[] a = expected.toFloatArray(), b = y.toFloatArray();
        double worst = 0;
        for (int i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(a[i])));
        assertTrue(worst <= 1e-5, name + ": JBurn differs from PyTorch by " + worst);
    }

    @Test
    void linear() {
        assertMatchesTorch(dir, "linear", Model.input("x", Shape.of(-1, 5)).dense(3), Map.of("dense_0", ""));
    }

    @Test
    void conv2dWithStridePaddingAndGroups() {
        Model m = Model.input("image", Shape.of(-1, 7, 7, 4))
                .apply(Conv.of(2, 6, 3).withStrides(2).withPadding(Padding.explicit(new int[][] {{1, 1}, {1, 1}})).withGroups(2));
        assertMatchesTorch(dir, "conv", m, Map.of("conv2d_0", ""));
    }

    @Test
    void batchNormWithRunningStatistics() {
        Model m = Model.input("image", Shape.of(-1, 4, 5, 3)).apply(BatchNorm.of().withEpsilon(1e-5).withMomentum(0.9));
        assertMatchesTorch(dir, "batchnorm", m, Map.of("batch_norm_0", ""));
    }

    @Test
    void twoLayerBidirectionalLstm() {
        Model m = Model.input("x", Shape.of(-1, 6, 4))
                .apply(Lstm.of(5).withReturnSequences(true).withBidirectional(true))
                .apply(Lstm.of(5).withReturnSequences(true).withBidirectional(true));
        assertMatchesTorch(dir, "lstm", m, Map.of("lstm_0", "", "lstm_1", "[1]"));
    }

    @Test
    void gru() {
        assertMatchesTorch(dir, "gru", Model.input("x", Shape.of(-1, 6, 4)).apply(Gru.of(5).withReturnSequences(true)), Map.of("gru_0", ""));
    }

    @Test
    void multiheadSelfAttention() {
        Model m = Model.input("x", Shape.of(-1, 5, 8)).apply(MultiHeadAttention.of(2, 4));
        assertMatchesTorch(dir, "attention", m, Map.of("multi_head_attention_0", ""));
    }

    @Test
    void wrongMappingsAreClearErrors() {
        Path f = dir.resolve("linear.safetensors");
        Model wide = Model.input("x", Shape.of(-1, 6)).dense(3);
        JBurnException e = assertThrows(JBurnException.class, () -> TorchImport.load(f, wide, Map.of("dense_0", "")));
        assertTrue(e.getMessage().contains("'dense_0.kernel' is f32[6, 3]") && e.getMessage().contains("f32[5, 3]"), e.getMessage());
        Model m = Model.input("x", Shape.of(-1, 5)).dense(3);
        e = assertThrows(JBurnException.class, () -> TorchImport.load(f, m, Map.of("dense_0", "fc")));
        assertTrue(e.getMessage().contains("needs the PyTorch tensor 'fc.weight'"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> TorchImport.load(f, m, Map.of()));
        assertTrue(e.getMessage().contains("has parameters but no PyTorch module"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> TorchImport.load(f, m.dense(2), Map.of("dense_0", "", "dense_1", "")));
        assertTrue(e.getMessage().contains("dense_1"), e.getMessage());
        Model noBias = Model.input("x", Shape.of(-1, 5)).apply(dev.jburn.nn.layers.Dense.of(3).withoutBias());
        e = assertThrows(JBurnException.class, () -> TorchImport.load(f, noBias, Map.of("dense_0", "")));
        assertTrue(e.getMessage().contains("tensors that no mapped layer uses: [bias]"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> TorchImport.load(f, m, Map.of("dense_7", "")));
        assertTrue(e.getMessage().contains("has no layer 'dense_7'"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> TorchImport.load(dir.resolve("gru.safetensors"), m, Map.of("dense_0", "")));
        assertTrue(e.getMessage().contains("needs the PyTorch tensor 'weight'"), e.getMessage());
    }
}
