package dev.jburn.examples;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.io.ModelFile;
import dev.jburn.io.Quantization;
import dev.jburn.io.SafeTensors;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Fit;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.Trainer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Managing a trained model, runnable: {@code ./jburn example model-management}. Trains a small MLP (32-64-64-4) on
 * synthetic data, then:
 * <ul>
 *   <li>saves it with {@link ModelFile#save} and loads it back: the loaded model predicts the same values bit for bit (checked);</li>
 *   <li>quantizes it to f16 (each parameter cast to F16 and back to F32): its predictions stay within
 *       {@value #F16_TOLERANCE} of the f32 ones (checked), and the parameters written with {@link SafeTensors} take about
 *       half the bytes in f16 (sizes printed, checked);</li>
 *   <li>quantizes it to int8 with {@link Quantization} (kernels as int8, one scale per output channel), saves and loads
 *       that model file: it is well under half the f32 file and predicts the same class for nearly every input (checked);</li>
 *   <li>freezes the first layer ({@link ModelState#freeze}) and trains on: the frozen parameters do not change, the
 *       others do (checked);</li>
 *   <li>times {@code predict} at batch 1, 32 and 256 (the median of N calls, printed);</li>
 *   <li>exports the parameters as a safetensors file for Python, and when {@code /usr/bin/python3} is there reads it
 *       back with a few lines of the standard library ({@code struct}, {@code json}) in a subprocess and compares one
 *       value (skipped when there is no Python).</li>
 * </ul>
 * The files go to a temporary directory, deleted at the end.
 */
public final class ModelManagementExample {
    private ModelManagementExample() {}

    /** How far the f16 model's logits may be from the f32 model's (absolute, largest over the test batch). */
    public static final double F16_TOLERANCE = 0.02;

    /** The Python that reads a safetensors file with the standard library only: name, dtype, shape and the first value. */
    static final String PYTHON = String.join("\n",
            "import json, struct, sys",
            "path, name = sys.argv[1], sys.argv[2]",
            "with open(path, 'rb') as f:",
            "    n = struct.unpack('<Q', f.read(8))[0]",
            "    header = json.loads(f.read(n))",
            "    t = header[name]",
            "    start, end = t['data_offsets']",
            "    f.seek(8 + n + start)",
            "    fmt = {'F32': '<f', 'F16': '<e', 'F64': '<d'}[t['dtype']]",
            "    value = struct.unpack(fmt, f.read(struct.calcsize(fmt)))[0]",
            "print(t['dtype'], json.dumps(t['shape']), repr(value))");

    /** What the example found. */
    public record Result(boolean reloadedBitForBit, double f16MaxDiff, long f32Bytes, long f16Bytes, boolean frozenUnchanged,
                         Map<Integer, Double> medianMillis, String python) {}

    public static void main(String[] args) throws Exception { run(System.out, args.length > 0 && args[0].equals("--small")); }

    /** Runs the example, printing to {@code out}; {@code small}: fewer timed calls. */
    public static Result run(PrintStream out, boolean small) throws IOException, InterruptedException {
        String ex = "model-management";
        Path dir = Files.createTempDirectory("jburn-model-management");
        try {
            // A model trained a little on 4 Gaussian blobs in 32 dimensions.
            int n = 1024;
            Tensor centers = Prng.normal(Prng.key(10), Shape.of(4, 32), DType.F32, 0, 1).values();
            Tensor labels = Prng.randint(Prng.key(11), 0, 4, Shape.of(n), DType.S32).values();
            Tensor x = centers.take(labels, 0).add(Prng.normal(Prng.key(12), Shape.of(n, 32), DType.F32, 0, 1).values());
            TensorDataset data = TensorDataset.of(x, labels);
            Model model = Model.input("x", Shape.of(-1, 32))
                    .dense(64, Activation.RELU)
                    .dense(64, Activation.RELU)
                    .dense(4)
                    .named("mlp");
            Trainer trainer = Trainer.of(model, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3)).metrics(Metrics.accuracy());
            ModelState trained = trainer.fit(model.init(Prng.key(0)), data, Fit.epochs(2).batchSize(64).quiet()).state().model();
            out.printf(Locale.ROOT, "trained %s (%,d parameters): accuracy %.3f%n", model.name(), model.parameterCount(),
                    trainer.evaluate(trained, data, 256).get("accuracy"));
            Tensor probe = data.x().slice(new int[] {0, 0}, new int[] {256, 32});
            float[] expected = model.predict(trained, probe).toFloatArray();

            // 1. Save and load: the same predictions, bit for bit.
            Path file = dir.resolve("mlp.jburn");
            ModelFile.save(file, model, trained);
            ModelFile.Loaded loaded = ModelFile.load(file);
            float[] again = loaded.model().predict(loaded.state(), probe).toFloatArray();
            boolean same = sameBits(expected, again);
            out.printf(Locale.ROOT, "saved %s (%,d bytes) and loaded it back: model %s, %d parameter tensors, predictions %s%n", file.getFileName(),
                    Files.size(file), loaded.model().name(), loaded.state().params().size(), same ? "identical bit for bit" : "DIFFERENT");
            ExampleFailure.check(same, ex, "the reloaded model's predictions differ from the saved model's");

            // 2. f16: each parameter cast to F16 and back; the bytes halve, the predictions barely move.
            Map<String, Tensor> f16 = new LinkedHashMap<>(), roundTripped = new LinkedHashMap<>();
            trained.params().forEach((k, v) -> {
                Tensor h = v.asType(DType.F16);
                f16.put(k, h);
                roundTripped.put(k, h.asType(v.dtype()));
            });
            ModelState quantized = trained.withParams(roundTripped);
            float[] q = model.predict(quantized, probe).toFloatArray();
            double maxDiff = 0, maxLogit = 0;
            int agree = 0;
            for (int i = 0; i < q.length; i++) {
                maxDiff = Math.max(maxDiff, Math.abs(q[i] - expected[i]));
                maxLogit = Math.max(maxLogit, Math.abs(expected[i]));
            }
            for (int r = 0; r < 256; r++) if (argmax(q, r, 4) == argmax(expected, r, 4)) agree++;
            Path f32File = dir.resolve("mlp-f32.safetensors"), f16File = dir.resolve("mlp-f16.safetensors");
            SafeTensors.write(f32File, trained.params(), Map.of("dtype", "f32"));
            SafeTensors.write(f16File, f16, Map.of("dtype", "f16"));
            long f32Bytes = Files.size(f32File), f16Bytes = Files.size(f16File);
            out.printf(Locale.ROOT, "f16: largest logit change %.5f (logits up to %.2f; tolerance %.2f), same class for %d of 256; "
                    + "safetensors %,d bytes in f32, %,d bytes in f16 (%.0f%%)%n", maxDiff, maxLogit, F16_TOLERANCE, agree, f32Bytes, f16Bytes,
                    100.0 * f16Bytes / f32Bytes);
            ExampleFailure.check(maxDiff <= F16_TOLERANCE, ex, "the f16 model's logits moved by %.5f, more than %.2f", maxDiff, F16_TOLERANCE);
            ExampleFailure.check(f16Bytes < 0.55 * f32Bytes, ex, "the f16 file (%d bytes) is not about half the f32 file (%d bytes)", f16Bytes, f32Bytes);

            // 2b. int8 with the quantization API: dense kernels stored as int8 with one scale per output channel, dequantized
            //     inside the compiled predict, in a model file of version 2 (jburn quantize does this to a file).
            Quantization.Result int8 = Quantization.quantize(model, trained, DType.S8);
            Path int8File = dir.resolve("mlp-int8.jburn");
            ModelFile.save(int8File, int8.model(), int8.state());
            ModelFile.Loaded int8Loaded = ModelFile.load(int8File);
            float[] q8 = int8Loaded.model().predict(int8Loaded.state(), probe).toFloatArray();
            double int8Diff = 0;
            int int8Agree = 0;
            for (int i = 0; i < q8.length; i++) int8Diff = Math.max(int8Diff, Math.abs(q8[i] - expected[i]));
            for (int r = 0; r < 256; r++) if (argmax(q8, r, 4) == argmax(expected, r, 4)) int8Agree++;
            long modelBytes = Files.size(file), int8Bytes = Files.size(int8File);
            out.printf(Locale.ROOT, "int8: model file %,d bytes against %,d in f32 (%.0f%%), largest logit change %.4f, same class for %d of 256%n",
                    int8Bytes, modelBytes, 100.0 * int8Bytes / modelBytes, int8Diff, int8Agree);
            ExampleFailure.check(int8Bytes < 0.5 * modelBytes, ex, "the int8 model file (%d bytes) is not much smaller than the f32 one (%d bytes)",
                    int8Bytes, modelBytes);
            ExampleFailure.check(int8Agree >= 245, ex, "the int8 model agrees with the f32 model on %d of 256 classes only", int8Agree);

            // 3. The parameters for Python: a plain safetensors file (the f32 one above), read back with the standard library.
            String python = pythonCheck(out, ex, f32File, "dense_0.kernel", trained.get("dense_0.kernel").toFloatArray()[0]);
            if (python != null) pythonCheck(out, ex, f16File, "dense_0.kernel", f16.get("dense_0.kernel").asType(DType.F32).toFloatArray()[0]);

            // 4. Timing predict: the median of N calls after a warm-up (the first call of a shape compiles it).
            int calls = small ? 15 : 100;
            Map<Integer, Double> medians = new LinkedHashMap<>();
            for (int batch : new int[] {1, 32, 256}) {
                Tensor in = data.x().slice(new int[] {0, 0}, new int[] {batch, 32});
                for (int i = 0; i < (small ? 5 : 20); i++) model.predict(trained, in).close();
                double[] ms = new double[calls];
                for (int i = 0; i < calls; i++) {
                    long t0 = System.nanoTime();
                    Tensor y = model.predict(trained, in);
                    y.toFloatArray();                          // the values back in Java: the whole call
                    ms[i] = (System.nanoTime() - t0) / 1e6;
                    y.close();
                }
                Arrays.sort(ms);
                double median = ms[calls / 2];
                medians.put(batch, median);
                out.printf(Locale.ROOT, "predict batch %3d: median %.3f ms of %d calls (%,.0f samples/s)%n", batch, median, calls, batch / median * 1e3);
                ExampleFailure.check(median > 0 && Double.isFinite(median), ex, "the timing of batch %d is %f ms", batch, median);
            }

            // 5. Freezing: train on with the first layer frozen; its parameters stay as they were, the others move.
            ModelState frozen = trained.freeze("dense_0.*");
            Map<String, float[]> before = new LinkedHashMap<>();
            frozen.params().forEach((k, v) -> before.put(k, v.toFloatArray()));
            out.println("frozen " + frozen.frozen() + "; training on: " + frozen.trainable().keySet());
            ModelState after = trainer.fit(frozen, data, Fit.epochs(1).batchSize(64).shuffle(1).quiet()).state().model();
            List<String> changed = new ArrayList<>(), unchanged = new ArrayList<>();
            after.params().forEach((k, v) -> (sameBits(before.get(k), v.toFloatArray()) ? unchanged : changed).add(k));
            out.println("after one more epoch: unchanged " + unchanged + ", changed " + changed);
            boolean frozenOk = unchanged.equals(List.of("dense_0.kernel", "dense_0.bias")) && changed.size() == 4;
            ExampleFailure.check(frozenOk, ex, "the frozen parameters must stay and the others move; unchanged %s, changed %s", unchanged, changed);

            out.println("ok: reload bit for bit, f16 within " + F16_TOLERANCE + ", frozen layer unchanged"
                    + (python == null ? " (Python check skipped)" : ", Python reads the same value"));
            return new Result(same, maxDiff, f32Bytes, f16Bytes, frozenOk, medians, python);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Reads {@code name}'s first value from {@code file} with Python's standard library and checks it equals
     * {@code expected}; returns Python's line, or null (skipped) when {@code /usr/bin/python3} is not there or does not run.
     */
    static String pythonCheck(PrintStream out, String ex, Path file, String name, float expected) throws IOException, InterruptedException {
        Path python = Path.of("/usr/bin/python3");
        if (!Files.isExecutable(python)) {
            out.println("python: no /usr/bin/python3, the check is skipped (" + file.getFileName() + " is a plain safetensors file)");
            return null;
        }
        Process p;
        try {
            p = new ProcessBuilder(python.toString(), "-c", PYTHON, file.toString(), name).redirectErrorStream(true).start();
        } catch (IOException e) {
            out.println("python: cannot start " + python + " (" + e.getMessage() + "), the check is skipped");
            return null;
        }
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            out.println("python: did not finish in 30 s, the check is skipped");
            return null;
        }
        ExampleFailure.check(p.exitValue() == 0, ex, "python could not read %s: %s", file.getFileName(), text);
        String[] parts = text.split(" ");
        double value = Double.parseDouble(parts[parts.length - 1]);
        out.printf(Locale.ROOT, "python (struct + json) reads %s of %s: %s; JBurn has %s%n", name, file.getFileName(), text, expected);
        ExampleFailure.check(value == (double) expected, ex, "python read %s from %s, JBurn wrote %s", value, file.getFileName(), expected);
        return text;
    }

    private static boolean sameBits(float[] a, float[] b) {
        if (a.length != b.length) return false;
        for (int i = 0; i < a.length; i++) if (Float.floatToRawIntBits(a[i]) != Float.floatToRawIntBits(b[i])) return false;
        return true;
    }

    private static int argmax(float[] v, int row, int k) {
        int best = 0;
        for (int j = 1; j < k; j++) if (v[row * k + j] > v[row * k + best]) best = j;
        return best;
    }
}
