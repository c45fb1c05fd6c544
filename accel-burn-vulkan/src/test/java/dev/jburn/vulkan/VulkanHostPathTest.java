package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;
import dev.jburn.spi.TensorBuffers;
import dev.jburn.train.Losses;
import dev.jburn.train.TrainStep;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The host-path settings change how commands are recorded and when the host waits, never a result: push descriptors
 * ({@link PushDescriptors}) against descriptor sets, small uploads read back from their host copy
 * ({@link DeviceBuffer#hostCopy()}) without waiting for the queue, and barriers only between dependent commands
 * ({@link BarrierTracker}) against one before every command. ({@code VulkanValidationTest} checks the barriers'
 * sufficiency with the validation layer's synchronization checks.)
 */
class VulkanHostPathTest {
    /** An engine with push descriptors, host copies, dependency barriers and batching while busy off: the path before them. */
    private static Engine plain;

    @BeforeAll
    static void plainEngine() {
        TestDevice.require();
        plain = privateEngine(c -> c.withPushDescriptors(false).withHostCopies(false).withDependencyBarriers(false).withBatchWhileBusy(false));
    }

    @AfterAll
    static void close() {
        if (plain != null) plain.backend().close();
    }

    static Engine privateEngine(UnaryOperator<VulkanConfig> settings) {
        return Engine.create(new EngineProvider() {
            @Override public String name() { return "vulkan"; }
            @Override public int priority() { return -100; }
            @Override public Availability availability() { return new VulkanProvider().availability(); }
            @Override public Backend create(EngineConfig c) { return new VulkanBackend(settings.apply(VulkanConfig.fromSystemProperties())); }
        }, EngineConfig.defaults());
    }

    @Test
    void pushDescriptorsAreUsedWhereTheDeviceOffersThem() {
        VulkanBackend b = (VulkanBackend) TestDevice.engine().backend();
        boolean offered = VulkanExtensions.device(b.dev.physical).contains(PushDescriptors.EXTENSION);
        assertEquals(offered, b.dev.maxPushDescriptors > 0, "push descriptors are on exactly where the device lists them");
        Pipelines.Pipeline iota = b.pipelines.get("iota", "iota", IotaKernels.SOURCE, 2, true);
        assertEquals(offered, iota.pushDescriptors());
        assertEquals(0, ((VulkanBackend) plain.backend()).dev.maxPushDescriptors);
        assertFalse(((VulkanBackend) plain.backend()).pipelines.get("iota", "iota", IotaKernels.SOURCE, 2, true).pushDescriptors());
    }

    /** A CNN's compiled Adam steps (conv, batch norm, pooling, GEMMs, fused groups, reductions) give the same bits either way. */
    @Test
    void trainingStepsGiveTheSameBitsEitherWay() {
        Model m = TestModels.smallCnn();
        Tensor x = Prng.uniform(Prng.key(5), Shape.of(8, 12, 12, 1), DType.F32, -1, 1).values();
        Tensor y = Prng.randint(Prng.key(6), 0, 10, Shape.of(8), DType.S32).values();
        List<float[]> want = steps(m, plain, x, y);
        List<float[]> got = steps(m, TestDevice.engine(), x, y);
        assertEquals(want.size(), got.size());
        for (int i = 0; i < want.size(); i++) assertArrayEquals(want.get(i), got.get(i), "value " + i);
    }

    /**
     * Waits on a timeline semaphore's counter instead of fences: used where the device has timeline semaphores, the
     * same training bits, and a run of waited-for submissions (more than the frames, so each is reused with a new
     * serial) each seeing its own result.
     */
    @Test
    void timelineWaitsGiveTheSameResults() {
        Engine timeline = privateEngine(c -> c.withTimelineWaits(true));
        try {
            VulkanBackend b = (VulkanBackend) timeline.backend();
            assertEquals(b.dev.timelineSemaphores, b.queue.timelineWaits(), "timeline waits exactly where the device has them");
            VulkanBackend shared = (VulkanBackend) TestDevice.engine().backend();
            assertEquals(shared.config().timelineWaits() && shared.dev.timelineSemaphores, shared.queue.timelineWaits(), "the shared engine follows its settings");
            assertFalse(new VulkanConfig(null, null, false).timelineWaits(), "off by default");
            Model m = Model.input("x", Shape.of(-1, 6, 6, 1)).conv2d(4, 3).activation(Activation.RELU).flatten().dense(10);
            Tensor x = Prng.uniform(Prng.key(7), Shape.of(4, 6, 6, 1), DType.F32, -1, 1).values();
            Tensor y = Prng.randint(Prng.key(8), 0, 10, Shape.of(4), DType.S32).values();
            List<float[]> want = steps(m, TestDevice.engine(), x, y), got = steps(m, timeline, x, y);
            for (int i = 0; i < want.size(); i++) assertArrayEquals(want.get(i), got.get(i), "value " + i);
            try (Tensor one = Tensor.of(new float[] {1, 2, 3}).to(timeline)) {
                Tensor acc = one.add(one);
                for (int i = 0; i < 3 * CommandQueue.FRAMES + 5; i++) {
                    Tensor next = acc.add(one);
                    acc.close();
                    acc = next;
                    assertEquals(3f + i, acc.toFloatArray()[0], "submission " + i);
                }
                acc.close();
            }
        } finally {
            timeline.backend().close();
        }
    }

    /** Three steps' losses, then every parameter, as floats. */
    private static List<float[]> steps(Model m, Engine e, Tensor x, Tensor y) {
        TrainStep step = TrainStep.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-2));
        TrainStep.State s = step.init(m.init(Prng.key(0).to(e)), Prng.key(1).to(e));
        Tensor xe = x.to(e), ye = y.to(e);
        List<float[]> out = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            TrainStep.Result r = step.apply(s, xe, ye);
            out.add(r.loss().toFloatArray());
            s = r.state();
        }
        for (Map.Entry<String, Tensor> p : s.model().params().entrySet()) out.add(p.getValue().toFloatArray());
        return out;
    }

    /**
     * A small upload reads back from its host copy, without waiting for queued work; a larger one, and any buffer a
     * kernel wrote, waits. With host copies off the small one waits too. The reads go to the backend
     * ({@code TensorBuffers.bytes}): a tensor made from host values would serve {@code toLongArray} from its own bytes.
     */
    @Test
    void smallUploadsReadBackWithoutWaiting() {
        Engine vk = TestDevice.engine();
        VulkanBackend b = (VulkanBackend) vk.backend();
        try (Tensor key = Prng.key(42).to(vk); Tensor big = Tensor.of(new float[100]).to(vk)) {
            byte[] want = TensorBuffers.bytes(Prng.key(42));
            try (Tensor queued = big.add(big)) { // an open frame: a download that waits for the queue counts a host wait
                long before = b.stats().hostWaits();
                assertArrayEquals(want, TensorBuffers.bytes(key));
                assertEquals(before, b.stats().hostWaits(), "8 bytes uploaded read back without a wait");
                assertEquals(0f, queued.toFloatArray()[0]);
                assertEquals(before + 1, b.stats().hostWaits(), "a kernel's output waits for the kernel");
            }
            try (Tensor queued = big.add(big)) {
                long before = b.stats().hostWaits();
                TensorBuffers.bytes(big);
                assertEquals(before + 1, b.stats().hostWaits(), "400 bytes are past the host copies' limit");
            }
        }
        try (Tensor key = Prng.key(42).to(plain); Tensor big = Tensor.of(new float[100]).to(plain); Tensor queued = big.add(big)) {
            VulkanBackend p = (VulkanBackend) plain.backend();
            long before = p.stats().hostWaits();
            assertArrayEquals(TensorBuffers.bytes(Prng.key(42)), TensorBuffers.bytes(key));
            assertEquals(before + 1, p.stats().hostWaits(), "without host copies the read waits");
        }
    }

    /** A training step folds its key on the host: with host copies, a loop of steps that reads no loss never waits. */
    @Test
    void trainingStepsDoNotWaitForTheDevice() {
        Engine vk = TestDevice.engine();
        VulkanBackend b = (VulkanBackend) vk.backend();
        Model m = Model.input("x", Shape.of(-1, 6)).dense(8, Activation.RELU).dense(3);
        TrainStep step = TrainStep.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-2));
        TrainStep.State s = step.init(m.init(Prng.key(0).to(vk)), Prng.key(1).to(vk));
        try (Tensor x = Prng.uniform(Prng.key(5), Shape.of(4, 6), DType.F32, -1, 1).values().to(vk);
             Tensor y = Prng.randint(Prng.key(6), 0, 3, Shape.of(4), DType.S32).values().to(vk)) {
            s = step.apply(s, x, y).state(); // traced and compiled
            long before = b.stats().hostWaits();
            for (int i = 0; i < 5; i++) s = step.apply(s, x, y).state();
            assertEquals(before, b.stats().hostWaits(), "host waits in 5 steps that read nothing");
        }
    }

    /**
     * A kernel reading another's output gets a barrier; one touching only other buffers, or only reading what earlier
     * ones read, does not (with the setting off, each does).
     */
    @Test
    void onlyDependentCommandsGetABarrier() {
        for (Engine e : List.of(TestDevice.engine(), plain)) {
            VulkanBackend b = (VulkanBackend) e.backend();
            boolean tracked = b.config().dependencyBarriers();
            try (Tensor x = Tensor.of(1f, 2f, 3f).to(e); Tensor y = Tensor.of(4f, 5f, 6f).to(e); Tensor c = x.add(x)) {
                long before = b.stats().barriers();
                try (Tensor d = c.add(c)) {
                    assertEquals(before + 1, b.stats().barriers(), "c + c reads what x + x wrote");
                    before = b.stats().barriers();
                    try (Tensor f = y.add(y)) {
                        assertEquals(before + (tracked ? 0 : 1), b.stats().barriers(), "y + y touches no buffer of the commands before");
                        before = b.stats().barriers();
                        try (Tensor g = y.multiply(y)) {
                            assertEquals(before + (tracked ? 0 : 1), b.stats().barriers(), "y * y only reads what y + y read too");
                            assertArrayEquals(new float[] {16, 25, 36}, g.toFloatArray());
                        }
                        assertArrayEquals(new float[] {4, 8, 12}, d.toFloatArray());
                        assertArrayEquals(new float[] {8, 10, 12}, f.toFloatArray());
                    }
                }
            }
        }
    }

    /**
     * On an idle device a large kernel is submitted as soon as it is recorded (it starts while the host goes on); a
     * small one waits in the open frame for more. (While earlier submissions run, the large one waits too: how long
     * they run is the device's business, so that half is measured by {@code TrainStepBench}'s submissions per step.)
     */
    @Test
    void aLargeKernelOnAnIdleDeviceIsSubmittedAtOnce() {
        Engine vk = TestDevice.engine();
        VulkanBackend b = (VulkanBackend) vk.backend();
        try (Tensor small = Tensor.of(1f, 2f).to(vk); Tensor large = Tensor.of(new float[1 << 20]).to(vk)) {
            b.synchronize();
            long before = b.stats().submissions();
            try (Tensor s = small.add(small)) {
                assertEquals(before, b.stats().submissions(), "a small kernel waits for more");
                b.synchronize();
                before = b.stats().submissions();
                try (Tensor l = large.add(large)) {
                    assertEquals(before + 1, b.stats().submissions(), "a large kernel on an idle device goes at once");
                }
            }
        }
    }
}
