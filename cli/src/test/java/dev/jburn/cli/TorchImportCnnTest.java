package dev.jburn.cli;

import dev.jburn.Tensor;
import dev.jburn.io.SafeTensors;
import dev.jburn.io.TorchImport;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The whole CNN of {@code jburn train --model cnn}, built and initialized in PyTorch by {@code bench/torch_export.py cnn}
 * (conv-relu-pool twice, flatten, 128, 10; images NCHW there, NHWC here), loads with {@link TorchImport} and gives
 * PyTorch's logits within 1e-5. Skipped where {@code /usr/bin/python3 -c 'import torch'} fails.
 */
class TorchImportCnnTest {
    @Test
    void theCliCnnGivesPyTorchsLogits(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "/usr/bin/python3 is not installed");
        Process probe = new ProcessBuilder("/usr/bin/python3", "-c", "import torch").redirectErrorStream(true).start();
        probe.getInputStream().readAllBytes();
        Assumptions.assumeTrue(probe.waitFor(120, TimeUnit.SECONDS) && probe.exitValue() == 0, "python3 cannot import torch");
        Path script = Files.isRegularFile(Path.of("../bench/torch_export.py")) ? Path.of("../bench/torch_export.py") : Path.of("bench/torch_export.py");
        Process p = new ProcessBuilder("/usr/bin/python3", script.toString(), dir.toString(), "cnn").redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "torch_export.py did not finish");
        assertEquals(0, p.exitValue(), log);

        Model cnn = Architectures.of("cnn");
        // torch.nn.Sequential indices: 0 conv, 1 batch norm, 2 relu, 3 pool, 4 conv, 5 batch norm, 6 relu, 7 pool,
        // 8 flatten, 9 linear, 10 relu, 11 linear.
        ModelState s = TorchImport.load(dir.resolve("cnn.safetensors"), cnn, Map.of("conv2d_0", "0", "batch_norm_0", "1",
                "conv2d_1", "4", "batch_norm_1", "5", "dense_0", "9", "dense_1", "11"));
        Map<String, Tensor> io = SafeTensors.read(dir.resolve("cnn-io.safetensors"));
        float[] expected = io.get("y").toFloatArray(), got = cnn.predict(s, io.get("x")).toFloatArray();
        assertEquals(expected.length, got.length);
        double worst = 0;
        for (int i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(expected[i] - got[i]) / Math.max(1, Math.abs(expected[i])));
        assertTrue(worst <= 1e-5, "the CNN differs from PyTorch by " + worst);
    }
}
