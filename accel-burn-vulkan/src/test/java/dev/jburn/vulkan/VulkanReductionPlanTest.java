package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.kernels.ReductionKernel;
import dev.jburn.kernels.ReductionPlan;
import dev.jburn.kernels.ReductionPlan.Form;
import dev.jburn.op.ReduceOp;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every reduction form {@link ReductionPlan} picks (a thread per output, columns and split workgroups with their
 * finishing pass, a workgroup per output) gives the cpu engine's results on the device: f32, f64 and integers;
 * sum, product, max and min; empty, one-element, strided and uneven-chunk shapes; NaN.
 */
class VulkanReductionPlanTest {
    private static Engine vk;
    private static Backend cpu;

    @BeforeAll
    static void requireDevice() {
        vk = TestDevice.engine();
        cpu = Engine.select("cpu").backend();
    }

    /** A shape, its reduced axes, and the form a float sum of it takes. */
    private record Case(Shape shape, int[] axes, Form floatForm) {}

    private static final List<Case> CASES = List.of(
            new Case(Shape.of(1, 1), new int[] {1}, Form.THREAD),
            new Case(Shape.of(5, 0), new int[] {1}, Form.THREAD),         // empty reductions: the identity
            new Case(Shape.of(0, 5), new int[] {1}, Form.THREAD),         // no outputs
            new Case(Shape.of(37, 5), new int[] {1}, Form.THREAD),
            new Case(Shape.of(4, 6, 3), new int[] {0, 2}, Form.THREAD),
            new Case(Shape.of(5, 1000), new int[] {1}, Form.BLOCK),
            new Case(Shape.of(2100, 40), new int[] {0}, Form.COLUMNS),    // 131 chunks of 17: the last ones short or empty
            new Case(Shape.of(70, 2, 30, 40), new int[] {0, 2}, Form.COLUMNS), // strided kept and reduced axes
            new Case(Shape.of(3, 20000), new int[] {1}, Form.SPLIT),
            new Case(Shape.of(20000, 3), new int[] {0}, Form.SPLIT));     // too few elements for columns

    private static final List<ReduceOp> OPS = List.of(ReduceOp.SUM, ReduceOp.PRODUCT, ReduceOp.REDUCE_MAX, ReduceOp.REDUCE_MIN);

    @Test
    void floatReductionsInEveryFormMatchTheCpuEngine() {
        for (DType t : List.of(DType.F32, DType.F64)) {
            for (Case c : CASES) {
                for (ReduceOp op : OPS) {
                    ReductionKernel k = ReductionKernel.of(op, t, c.shape(), c.axes(), t);
                    assertEquals(c.floatForm(), ReductionPlan.form(k), c.toString());
                    check(op, t, c, false);
                    if (c.shape().size() > 40) check(op, t, c, true);
                }
            }
        }
    }

    @Test
    void integerReductionsMatchTheCpuEngine() {
        // integers are never split: their forms are a thread or a workgroup per output
        for (DType t : List.of(DType.S32, DType.U8, DType.S64)) {
            for (Case c : CASES) {
                if (c.shape().size() > 100_000) continue; // the columns and split shapes once (a shader per shape)
                for (ReduceOp op : t == DType.S32 ? OPS : List.of(ReduceOp.SUM, ReduceOp.REDUCE_MAX)) {
                    Form f = ReductionPlan.form(ReductionKernel.of(op, t, c.shape(), c.axes(), t));
                    assertTrue(f == Form.THREAD || f == Form.BLOCK, c + " " + f);
                    check(op, t, c, false);
                }
            }
        }
    }

    /** The planned kernels run eagerly too, once an input is large enough to be worth its own pipeline. */
    @Test
    void largeEagerReductionsUseTheirPlannedForm() {
        VulkanBackend backend = (VulkanBackend) vk.backend();
        // The reference on the cpu engine: Tensor.of makes tensors on the default engine, which is the GPU where one is found
        // (the sums of `want` then ran on the device too and doubled the count on an H200).
        try (Tensor made = Tensor.of(values(DType.F32, 128 * 26 * 26 * 32, false, new Random(3)).toArray(ValueLayout.JAVA_FLOAT));
             Tensor host = made.to(Engine.select("cpu")); Tensor h = host.reshape(128, 26, 26, 32); Tensor x = h.to(vk)) {
            for (int[] axes : List.of(new int[] {0, 1, 2}, new int[] {3}, new int[] {0, 1, 2, 3})) {
                long before = backend.stats().dispatches();
                var namesBefore = backend.dispatchNames();
                try (Tensor got = x.sum(axes); Tensor want = h.sum(axes)) {
                    long dispatches = backend.stats().dispatches() - before;
                    // columns or split: main and finish; a thread per output: one (no transpose either way)
                    assertEquals(axes.length == 1 ? 1 : 2, dispatches, java.util.Arrays.toString(axes) + ", dispatches by name (with "
                            + "-Djburn.vulkan.dispatchNames=true) before " + namesBefore + ", after " + backend.dispatchNames());
                    assertClose(want.toFloatArray(), got.toFloatArray(), 1e-3f, java.util.Arrays.toString(axes));
                }
            }
        }
    }

    /** With leading sums fused, the batch-norm sum of squares is one planned reduction: columns, then their finish. */
    @Test
    void aFusedLeadingSumOfSquaresRunsAsColumns() {
        assertTrue(vk.backend().capabilities().fusesLeadingSums());
        VulkanBackend backend = (VulkanBackend) vk.backend();
        CompiledFunction f = Jit.compile((Tensor x) -> x.multiply(x).sum(0, 1, 2));
        try (Tensor made = Tensor.of(values(DType.F32, 64 * 13 * 13 * 32, false, new Random(5)).toArray(ValueLayout.JAVA_FLOAT));
             Tensor host = made.to(Engine.select("cpu")); Tensor h = host.reshape(64, 13, 13, 32); Tensor x = h.to(vk)) {
            f.apply(x).close();
            long before = backend.stats().dispatches();
            float[] got;
            try (Tensor r = f.apply(x)) {
                got = r.toFloatArray();
            }
            assertEquals(2, backend.stats().dispatches() - before, "x*x fused into the columns kernel, then the finish");
            try (Tensor sq = h.multiply(h); Tensor want = sq.sum(0, 1, 2)) {
                assertClose(want.toFloatArray(), got, 1e-4f, "sum(x*x)");
            }
        }
    }

    /** Runs {@code op} of a {@code c}-shaped {@code t} input through the planned kernel and compares it with the cpu engine's. */
    private static void check(ReduceOp op, DType t, Case c, boolean withNaN) {
        VulkanBackend backend = (VulkanBackend) vk.backend();
        String label = op.opName() + ":" + t.shortName() + c.shape() + " axes " + java.util.Arrays.toString(c.axes()) + (withNaN ? " with NaN" : "");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = values(t, c.shape().size(), withNaN, new Random(c.shape().hashCode() + op.ordinal()), op, arena);
            Buffer device = backend.upload(in);
            Buffer host = cpu.upload(in);
            ReductionKernel k = ReductionKernel.of(op, t, c.shape(), c.axes(), t);
            Buffer got = backend.elementwise.reduce("test", k, List.of(new Operand(device, t, c.shape())));
            assertTrue(got != null, label + ": no kernel");
            Buffer want = cpu.reduce(op, new Operand(host, t, c.shape()), c.axes(), t);
            long outputs = k.outShape().size();
            MemorySegment g = arena.allocate(Math.max(1, t.byteSize(outputs)), 8), w = arena.allocate(Math.max(1, t.byteSize(outputs)), 8);
            if (outputs > 0) {
                backend.download(got, 0, g.asSlice(0, t.byteSize(outputs)));
                cpu.download(want, 0, w.asSlice(0, t.byteSize(outputs)));
            }
            for (long i = 0; i < outputs; i++) {
                String at = label + " [" + i + "]";
                switch (t) {
                    case F32 -> assertFloat(w.getAtIndex(ValueLayout.JAVA_FLOAT, i), g.getAtIndex(ValueLayout.JAVA_FLOAT, i), 1e-4, at);
                    case F64 -> assertFloat(w.getAtIndex(ValueLayout.JAVA_DOUBLE, i), g.getAtIndex(ValueLayout.JAVA_DOUBLE, i), 1e-12, at);
                    case S32 -> assertEquals(w.getAtIndex(ValueLayout.JAVA_INT, i), g.getAtIndex(ValueLayout.JAVA_INT, i), at);
                    case S64 -> assertEquals(w.getAtIndex(ValueLayout.JAVA_LONG, i), g.getAtIndex(ValueLayout.JAVA_LONG, i), at);
                    case U8 -> assertEquals(w.get(ValueLayout.JAVA_BYTE, i), g.get(ValueLayout.JAVA_BYTE, i), at);
                    default -> throw new IllegalArgumentException(t.toString());
                }
            }
            for (Buffer b : List.of(device, host, got, want)) b.release();
        }
    }

    /** NaN where either is; otherwise within {@code rel} of the larger magnitude (float sums and products add up in another order). */
    private static void assertFloat(double want, double got, double rel, String at) {
        if (Double.isNaN(want) || Double.isNaN(got) || Double.isInfinite(want)) {
            assertEquals(want, got, 0.0, at);
        } else {
            assertEquals(want, got, rel * Math.max(1, Math.max(Math.abs(want), Math.abs(got))), at);
        }
    }

    private static void assertClose(float[] want, float[] got, float rel, String at) {
        assertEquals(want.length, got.length, at);
        for (int i = 0; i < want.length; i++) assertFloat(want[i], got[i], rel, at + " [" + i + "]");
    }

    private static MemorySegment values(DType t, long n, boolean withNaN, Random rnd) {
        return values(t, n, withNaN, rnd, ReduceOp.SUM, Arena.ofAuto());
    }

    /**
     * {@code n} values of {@code t}: for products near 1 (or ±1 and 2 for integers, whose products wrap), else
     * in [-1, 1) (integers: small, of both signs); with NaN at a few positions.
     */
    private static MemorySegment values(DType t, long n, boolean withNaN, Random rnd, ReduceOp op, Arena arena) {
        MemorySegment s = arena.allocate(Math.max(1, t.byteSize(n)), 8);
        boolean product = op == ReduceOp.PRODUCT;
        List<Long> nans = new ArrayList<>();
        if (withNaN) for (long i = 7; i < n; i += n / 3 + 1) nans.add(i);
        for (long i = 0; i < n; i++) {
            double v = product ? 1 + (rnd.nextDouble() - 0.5) * 1e-3 : rnd.nextDouble() * 2 - 1;
            if (nans.contains(i)) v = Double.NaN;
            long iv = product ? (rnd.nextInt(4) == 0 ? -1 : rnd.nextInt(8) == 0 ? 2 : 1) : rnd.nextInt(200) - 100;
            switch (t) {
                case F32 -> s.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) v);
                case F64 -> s.setAtIndex(ValueLayout.JAVA_DOUBLE, i, v);
                case S32 -> s.setAtIndex(ValueLayout.JAVA_INT, i, (int) iv);
                case S64 -> s.setAtIndex(ValueLayout.JAVA_LONG, i, iv * 1_000_000_007L);
                case U8 -> s.set(ValueLayout.JAVA_BYTE, i, (byte) iv);
                default -> throw new IllegalArgumentException(t.toString());
            }
        }
        return s;
    }
}
