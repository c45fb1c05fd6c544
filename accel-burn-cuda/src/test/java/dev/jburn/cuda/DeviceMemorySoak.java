package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.BatchNorm;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.TrainStep;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Device memory over a long run (issue 17): {@code jburn train}'s CNN step (Adam, batch 128) on the cuda engine for
 * {@code steps} steps, printing the caching allocator's live and reserved bytes at checkpoints (they must stay flat
 * after the first steps), then an allocation far beyond the device's memory, which must fail with a
 * {@code JBurnException} naming the request and the free memory, and more steps afterwards (the engine stays usable).
 * Exits non-zero when memory grows after warm-up or the out-of-memory case misbehaves. Not a unit test: run on a GPU,
 * {@code java ... dev.jburn.cuda.DeviceMemorySoak [steps=10000]} (from {@code cli/gpu/cnn-step-h200.sh} with SOAK=1).
 */
public final class DeviceMemorySoak {
    private DeviceMemorySoak() {}

    public static void main(String[] args) {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Engine e = Engine.select("cuda");
        CudaBackend b = (CudaBackend) e.backend();
        Model m = Model.input("image", Shape.of(-1, 28, 28, 1))
                .conv2d(32, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                .conv2d(64, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                .flatten().dense(128, Activation.RELU).dense(10).named("cnn");
        TrainStep ts = TrainStep.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3), List.of(Metrics.accuracy()));
        Tensor x = Prng.uniformSplit(Prng.key(3), Shape.of(128, 28, 28, 1), DType.F32, 0, 1).to(e);
        Tensor y = Prng.randintSplit(Prng.key(4), 0, 10, Shape.of(128), DType.S32).to(e);
        Tensor w = Tensor.ones(Shape.of(128), DType.F32).to(e);
        TrainStep.State s = ts.init(m.init(Prng.key(0)).to(e), Prng.key(1).to(e));
        List<Map<String, Tensor>> ms = ts.freshMetrics(x);
        long liveAfterWarmup = -1, reservedAfterWarmup = -1;
        boolean ok = true;
        long t0 = System.nanoTime();
        for (int i = 1; i <= steps; i++) {
            TrainStep.Result r = ts.apply(s, x, y, w, ms);
            r.release(s, ms);
            s = r.state();
            ms = r.metrics();
            double loss = i % 1000 == 0 || i == 100 || i == steps ? r.loss().toDoubleArray()[0] : Double.NaN;
            r.loss().close();
            if (i == 100 || i % 1000 == 0 || i == steps) {
                b.synchronize();
                long live = b.liveBytes(), reserved = b.reservedBytes();
                System.out.printf(Locale.ROOT, "step %6d: loss %.4f, live %,d bytes, reserved %,d bytes, %.0f steps/s%n", i, loss, live, reserved,
                        i / ((System.nanoTime() - t0) / 1e9));
                if (i == 1000) {
                    liveAfterWarmup = live;
                    reservedAfterWarmup = reserved;
                } else if (i > 1000 && (live > liveAfterWarmup || reserved > reservedAfterWarmup)) {
                    System.out.println("FAIL: device memory grew after step 1000");
                    ok = false;
                }
            }
        }
        try (Tensor one = Tensor.of(1f).to(e)) {
            Tensor huge = one.broadcast(Shape.of(1_000_000, 1_000_000)); // 4 TB
            huge.close();
            System.out.println("FAIL: a 4 TB tensor was allocated");
            ok = false;
        } catch (JBurnException ex) {
            System.out.println("out of memory as expected: " + ex.getMessage());
            if (!ex.getMessage().contains("requested") || !ex.getMessage().contains("free")) ok = false;
        }
        for (int i = 0; i < 10; i++) {
            TrainStep.Result r = ts.apply(s, x, y, w, ms);
            r.release(s, ms);
            s = r.state();
            ms = r.metrics();
            if (i == 9) System.out.printf(Locale.ROOT, "after the failed allocation: 10 more steps, loss %.4f, live %,d bytes%n",
                    r.loss().toDoubleArray()[0], b.liveBytes());
            r.loss().close();
        }
        System.out.println(ok ? "device memory soak: ok" : "device memory soak: FAILED");
        if (!ok) System.exit(1);
    }
}
