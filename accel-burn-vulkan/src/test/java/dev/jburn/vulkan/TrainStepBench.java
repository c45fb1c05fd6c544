package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.BatchNorm;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Losses;
import dev.jburn.train.TrainStep;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The host cost of a compiled training step on the Vulkan engine: {@code jburn train --model cnn}'s network
 * and Adam step, run the way {@code Trainer.fit} runs it (a device batch sliced per step, per-row weights
 * uploaded, the step's key folded on the host, losses read in groups of 32), on random data. Prints per step:
 * wall time, the calling thread's CPU time (on a CPU driver such as lavapipe the driver's threads do the
 * device's work, so the caller's CPU time is the engine's host work), dispatches, submissions, host waits and
 * host transfers. Not a test: run it as a main class.
 *
 * <pre>
 * java ... dev.jburn.vulkan.TrainStepBench [--model cnn|mlp] [--batch 128] [--image 28] [--steps 64] [--warmup 8] [--device-time]
 * </pre>
 * ({@code --batch 2 --image 10} keeps lavapipe's share small.) {@code --device-time} then runs the steps again with GPU
 * timestamps around each submission and prints the device's busy time per step (the queries cost a little); with
 * {@code -Djburn.vulkan.dispatchTimes=true} also that time per kernel and work-group count, largest first (a timestamp
 * after every dispatch: the queries cost more, and dispatches that could overlap are serialized by them less than not at all).
 */
public final class TrainStepBench {
    private TrainStepBench() {}

    public static void main(String[] args) {
        int batch = 128, image = 28, steps = 64, warmup = 8;
        boolean deviceTime = false, fit = false, mlp = false;
        java.util.Set<String> without = new java.util.HashSet<>();
        java.nio.file.Path jfr = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--batch" -> batch = Integer.parseInt(args[++i]);
                case "--image" -> image = Integer.parseInt(args[++i]);
                case "--steps" -> steps = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--device-time" -> deviceTime = true;
                case "--fit" -> fit = true;
                case "--model" -> mlp = switch (args[++i]) {
                    case "mlp" -> true;
                    case "cnn" -> false;
                    default -> throw new IllegalArgumentException("--model is mlp or cnn, got " + args[i]);
                };
                case "--without" -> without.addAll(List.of(args[++i].split(",")));
                case "--jfr" -> jfr = java.nio.file.Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Engine vk = Engine.select("vulkan");
        VulkanBackend b = (VulkanBackend) vk.backend();
        System.out.println("device: " + b.deviceDescription() + "; push descriptors: " + (b.dev.maxPushDescriptors > 0 ? "on" : "off")
                + ", host copies: " + b.config().hostCopies() + ", dependency barriers: " + b.config().dependencyBarriers()
                + ", batch while busy: " + b.config().batchWhileBusy());
        // jburn train's models (cli Architectures): the MLP reads the image as one row
        Model m = mlp ? Model.input("image", Shape.of(-1, image, image, 1)).flatten().dense(256, Activation.RELU).dense(10).named("mlp")
                : Model.input("image", Shape.of(-1, image, image, 1))
                .conv2d(32, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                .conv2d(64, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                .flatten().dense(128, Activation.RELU).dense(10).named("cnn");
        if (fit) {
            fit(vk, b, m, batch, image, steps, without, jfr);
            return;
        }
        int rows = batch * 4;
        TensorDataset data = TensorDataset.of(
                Prng.uniform(Prng.key(5), Shape.of(rows, image, image, 1), DType.F32, -1, 1).values().to(vk),
                Prng.randint(Prng.key(6), 0, 10, Shape.of(rows), DType.S32).values().to(vk));
        TrainStep step = TrainStep.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3));
        TrainStep.State[] s = {step.init(m.init(Prng.key(0).to(vk)), Prng.key(1).to(vk))};
        run(step, s, data, batch, warmup, b);
        b.synchronize();
        VulkanBackend.Stats before = b.stats();
        Map<String, Long> namesBefore = b.dispatchNames();
        long t0 = System.nanoTime();
        double cpu0 = VulkanBench.threadCpuNanos();
        double last = run(step, s, data, batch, steps, b);
        b.synchronize();
        double wall = (System.nanoTime() - t0) / 1e6 / steps;
        double cpu = (VulkanBench.threadCpuNanos() - cpu0) / 1e6 / steps;
        VulkanBackend.Stats after = b.stats();
        System.out.printf("%s train step, batch %d, %dx%d images, %d steps: %.3f ms/step wall (%.0f samples/s), %.3f ms/step caller CPU%n",
                m.name(), batch, image, image, steps, wall, batch * 1e3 / wall, cpu);
        perStep(before, after, steps, cpu);
        if (deviceTime) {
            b.measureDeviceTime(true);
            b.synchronize();
            Map<String, Long> times0 = b.dispatchTimes();
            long d0 = b.stats().deviceNanos(), t1 = System.nanoTime();
            run(step, s, data, batch, steps, b);
            b.synchronize();
            System.out.printf("  with GPU timestamps on: %.3f ms/step wall, device busy %.3f ms/step%n",
                    (System.nanoTime() - t1) / 1e6 / steps, (b.stats().deviceNanos() - d0) / 1e6 / steps);
            b.measureDeviceTime(false);
            // -Djburn.vulkan.dispatchTimes=true: where that device time went, per step, by kernel and work-group count
            int timedSteps = steps;
            b.dispatchTimes().entrySet().stream()
                    .map(e -> Map.entry(e.getKey(), (e.getValue() - times0.getOrDefault(e.getKey(), 0L)) / 1e3 / timedSteps))
                    .filter(e -> e.getValue() > 0).sorted(Map.Entry.comparingByValue(java.util.Comparator.reverseOrder())).limit(40)
                    .forEach(e -> System.out.printf("  %9.1f us/step  %s%n", e.getValue(), e.getKey()));
        }
        System.out.printf("  last loss %.6f%n", last);
        if (!namesBefore.isEmpty()) { // -Djburn.vulkan.dispatchNames=true: what the timed steps dispatched, per step
            java.util.Map<String, Long> now = b.dispatchNames();
            int timed = steps;
            now.entrySet().stream().map(e -> Map.entry(e.getKey(), (e.getValue() - namesBefore.getOrDefault(e.getKey(), 0L)) / (double) timed))
                    .filter(e -> e.getValue() > 0).sorted(Map.Entry.comparingByValue(java.util.Comparator.reverseOrder()))
                    .forEach(e -> System.out.printf("  %6.2f  %s%n", e.getValue(), e.getKey()));
        }
        System.out.println("fallbacks: " + vk.fallbackCounts());
        System.out.println("stats: " + after);
        System.out.println("graphs recorded/replayed/refused: " + java.util.Arrays.toString(b.graphCounts()));
    }

    /**
     * {@code Trainer.fit} itself, set up as {@code jburn train --model cnn} sets it up (Adam with cosine decay, the
     * accuracy metric, a shuffle per epoch, data on the device): two epochs of {@code steps} steps, the host counters
     * taken over the second. What the step alone ({@link #run}) does not show: the schedule's learning rate, the
     * metric, the shuffle, the progress bar. {@code --without schedule,metric,shuffle,progress} leaves parts out
     * (a constant learning rate, no metric, no shuffle, no progress bar on standard output) to find what costs;
     * {@code --jfr FILE} records the second epoch's execution samples (1 ms) there.
     */
    private static void fit(Engine vk, VulkanBackend b, Model m, int batch, int image, int steps, java.util.Set<String> without,
                            java.nio.file.Path jfr) {
        int rows = batch * steps;
        TensorDataset data = TensorDataset.of(
                Prng.uniform(Prng.key(5), Shape.of(rows, image, image, 1), DType.F32, -1, 1).values().to(vk),
                Prng.randint(Prng.key(6), 0, 10, Shape.of(rows), DType.S32).values().to(vk));
        VulkanBackend.Stats[] at = new VulkanBackend.Stats[1];
        long[] t = new long[1];
        double[] cpu = new double[1];
        Object[] recording = new Object[1];
        dev.jburn.train.Callback probe = new dev.jburn.train.Callback() {
            @Override public void onEpochBegin(dev.jburn.train.TrainingContext c, int epoch) {
                if (epoch != 1) return;
                if (jfr != null) recording[0] = Jfr.start();
                at[0] = b.stats();
                t[0] = System.nanoTime();
                cpu[0] = VulkanBench.threadCpuNanos();
            }
        };
        dev.jburn.train.Trainer trainer = dev.jburn.train.Trainer.of(m, Losses.softmaxCrossEntropy(), without.contains("schedule")
                        ? Optimizers.adam(1e-3) : Optimizers.adam(dev.jburn.optim.Schedules.cosineDecay(1e-3, 2L * steps, 0)))
                .callbacks(probe);
        if (!without.contains("metric")) trainer = trainer.metrics(dev.jburn.train.Metrics.accuracy());
        dev.jburn.train.Fit options = dev.jburn.train.Fit.epochs(2).batchSize(batch);
        options = without.contains("shuffle") ? options.noShuffle() : options.shuffle(7);
        options = without.contains("progress") ? options.quiet() : options.output(System.out);
        var r = trainer.fit(m.init(Prng.key(0).to(vk)), data, options);
        b.synchronize();
        if (recording[0] != null) Jfr.stop(recording[0], jfr);
        double wall = (System.nanoTime() - t[0]) / 1e6 / steps, c = (VulkanBench.threadCpuNanos() - cpu[0]) / 1e6 / steps;
        VulkanBackend.Stats after = b.stats(), before = at[0];
        System.out.printf("Trainer.fit, %s, batch %d, %dx%d images, without %s, epoch 2 (%d steps): %.3f ms/step wall (%.0f samples/s; fit says %.0f), %.3f ms/step caller CPU%n",
                m.name(), batch, image, image, without, steps, wall, batch * 1e3 / wall, r.history().get("samples_per_s").get(1), c);
        perStep(before, after, steps, c);
        System.out.println("fallbacks: " + vk.fallbackCounts());
    }

    /** The host counters between {@code before} and {@code after} per step, and the caller's CPU ({@code cpuMs} a step) per dispatch. */
    private static void perStep(VulkanBackend.Stats before, VulkanBackend.Stats after, int steps, double cpuMs) {
        double d = (after.dispatches() - before.dispatches()) / (double) steps;
        System.out.printf("  per step: %.1f dispatches, %.1f barriers, %.2f submissions, %.3f host waits, %.2f host transfers, %.2f buffers created;"
                        + " caller CPU %.2f us/dispatch%n",
                d, (after.barriers() - before.barriers()) / (double) steps, (after.submissions() - before.submissions()) / (double) steps,
                (after.hostWaits() - before.hostWaits()) / (double) steps, (after.transfers() - before.transfers()) / (double) steps,
                (after.buffersCreated() - before.buffersCreated()) / (double) steps, cpuMs * 1e3 / d);
    }

    /** {@code n} steps as {@code Trainer.fit} runs them; returns the last loss. */
    private static double run(TrainStep step, TrainStep.State[] s, TensorDataset data, int batch, int n, VulkanBackend b) {
        List<Tensor> pending = new ArrayList<>();
        double last = Double.NaN;
        int batches = data.size() / batch;
        List<Map<String, Tensor>> ms = step.freshMetrics(data.x());
        try (Tensor ones = Tensor.full(Shape.of(batch), DType.F32, 1, data.x().engine())) { // full batches' row weights, as fit makes them
            for (int i = 0; i < n; i++) {
                TensorDataset part = data.batch((i % batches) * batch, batch);
                try (Tensor x = part.x(); Tensor y = part.y()) {
                    TrainStep.Result r = step.apply(s[0], x, y, ones, ms);
                    r.release(s[0], ms);
                    s[0] = r.state();
                    ms = r.metrics();
                    pending.add(r.loss());
                }
                if (pending.size() == 32 || i == n - 1) { // read together, as Trainer.fit does: one stack, one download
                    try (Tensor all = Tensor.stack(pending, 0)) {
                        double[] v = all.toDoubleArray();
                        last = v[v.length - 1];
                    }
                    pending.forEach(Tensor::close);
                    pending.clear();
                }
            }
        }
        return last;
    }

    /** A flight recording of execution samples every millisecond, through reflection (this module does not read jdk.jfr). */
    private static final class Jfr {
        static Object start() {
            try {
                Class<?> rc = Class.forName("jdk.jfr.Recording");
                Object r = rc.getConstructor().newInstance();
                for (String event : List.of("jdk.ExecutionSample", "jdk.NativeMethodSample")) {
                    Object settings = rc.getMethod("enable", String.class).invoke(r, event);
                    settings.getClass().getMethod("withPeriod", java.time.Duration.class).invoke(settings, java.time.Duration.ofMillis(1));
                }
                rc.getMethod("start").invoke(r);
                return r;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("no flight recorder", e);
            }
        }

        static void stop(Object r, java.nio.file.Path to) {
            try {
                r.getClass().getMethod("stop").invoke(r);
                r.getClass().getMethod("dump", java.nio.file.Path.class).invoke(r, to);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("the recording could not be written to " + to, e);
            }
        }
    }
}
