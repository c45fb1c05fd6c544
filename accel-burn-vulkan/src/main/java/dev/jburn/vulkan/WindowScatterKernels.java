package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.kernels.WindowScatterPlan;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.util.List;

/**
 * {@code windowScatterMax/Min} on the device: {@link WindowScatterShader}'s select and scatter
 * shaders in one submission (fill and select-add where no two windows share an element). F16 and BF16 sources go through F64 (the widening casts are exact, the
 * F64 sums are the cpu engine's, and the one cast back rounds once), so every result equals the cpu
 * engine's bit for bit.
 */
final class WindowScatterKernels {
    private final VulkanBackend b;

    WindowScatterKernels(VulkanBackend b) { this.b = b; }

    /**
     * Whether scatters of type {@code t} (source and result; {@code x} of the same type) run here. F32 on a
     * device without f64 runs only where no two windows overlap (max pooling's usual case); others fall back.
     */
    boolean supports(DType t) {
        VulkanFeatures f = b.dev.features;
        if (!b.movement.supports(t) || ArgReduceShader.reader(t, f) == null) return false;
        return switch (t) {
            case F16, BF16 -> widens(t);
            default -> WindowScatterShader.accumulator(t, f, true) != null;
        };
    }

    /** Whether {@code t} goes to F64 and back on the device. */
    private boolean widens(DType t) {
        return WindowScatterShader.accumulator(DType.F64, b.dev.features, false) != null && b.elementwise.supportsCast(t)
                && b.elementwise.supportsCast(DType.F64);
    }

    /** The result; {@code null} to fall back (types this device lacks, rank past 8, indices past 32 bits). */
    DeviceBuffer scatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        boolean max = switch (op) {
            case WINDOW_SCATTER_MAX -> true;
            case WINDOW_SCATTER_MIN -> false;
            case WINDOW_SUM, WINDOW_PRODUCT, WINDOW_MAX, WINDOW_MIN -> throw new dev.jburn.JBurnException(op.opName(), "is not a window scatter");
        };
        DType t = source.dtype();
        if (t == DType.F16 || t == DType.BF16) return widens(t) ? viaF64(op, x, source, init, spec) : null;
        VulkanFeatures f = b.dev.features;
        ArgReduceShader.Reader reader = ArgReduceShader.reader(x.dtype(), f);
        WindowScatterShader.Accumulator acc = WindowScatterShader.accumulator(t, f, WindowScatterPlan.disjoint(spec));
        int[] params = WindowScatterPlan.params(x.shape(), source.shape(), spec);
        if (reader == null || acc == null || params == null || !b.movement.supports(x.dtype()) || !b.movement.supports(t)) return null;
        long n = x.size(), windows = params[1];
        long outBytes = t.byteSize(n);
        MovementKernels m = b.movement;
        if (!m.bindable(outBytes) || !m.bindable(x.buffer().byteSize()) || !m.bindable(source.buffer().byteSize()) || !m.bindable(4 * windows)) return null;
        String name = op.opName();
        DeviceBuffer out = b.memory.allocateUninitialized(name, outBytes);
        if (n == 0) return out;
        try {
            DeviceBuffer xb = VulkanBackend.device(x.buffer(), name), sb = VulkanBackend.device(source.buffer(), name);
            DeviceBuffer ib = VulkanBackend.device(init.buffer(), name);
            boolean xFloat = x.dtype().isFloat(), tFloat = t.isFloat();
            int rank = x.shape().rank();
            if (WindowScatterPlan.disjoint(spec)) {
                disjoint(name, reader, xFloat, max, acc, tFloat, rank, xb, sb, ib, out, params, n, windows);
                return out;
            }
            DeviceBuffer sel = b.memory.allocateUninitialized(name, Math.max(4, 4 * windows));
            try {
                // found by what their sources are generated from, so a call seen before generates no GLSL (Pipelines#get)
                Pipelines.Pipeline selectP = b.pipelines.get(name, "windowSelect", List.of("windowSelect", reader, xFloat, max, rank), () -> {
                    String src = WindowScatterShader.select(reader, xFloat, max, rank);
                    return xFloat ? FloatControls.apply(src, f) : src; // its isnan must not be assumed false
                }, 3, true);
                Pipelines.Pipeline scatterP = b.pipelines.get(name, "windowScatter", List.of("windowScatter", acc, tFloat, rank), () -> {
                    String src = WindowScatterShader.scatter(acc, tFloat, rank);
                    return tFloat ? FloatControls.apply(src, f) : src;
                }, 5, true);
                b.queue.submit(name, r -> {
                    if (windows > 0) r.dispatch(name, selectP, List.of(xb, sel), CommandQueue.writes(1), params, groups(windows), 1, 1);
                    r.dispatch(name, scatterP, List.of(sb, ib, sel, out), CommandQueue.writes(3), params, groups(n), 1, 1);
                });
            } finally {
                sel.release(); // the submission keeps it until its kernels have run
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** No two windows share an element: {@code init} everywhere, then each window adds its source where it picked. */
    private void disjoint(String name, ArgReduceShader.Reader reader, boolean xFloat, boolean max, WindowScatterShader.Accumulator acc,
                          boolean tFloat, int rank, DeviceBuffer xb, DeviceBuffer sb, DeviceBuffer ib, DeviceBuffer out, int[] params, long n, long windows) {
        VulkanFeatures f = b.dev.features;
        Pipelines.Pipeline fillP = b.pipelines.get(name, "windowScatterFill", List.of("windowScatterFill", acc), () -> {
            String src = WindowScatterShader.fill(acc);
            return tFloat ? FloatControls.apply(src, f) : src;
        }, 3, true);
        Pipelines.Pipeline addP = b.pipelines.get(name, "windowSelectAdd", List.of("windowSelectAdd", reader, xFloat, max, acc, tFloat, rank), () -> {
            String src = WindowScatterShader.selectAdd(reader, xFloat, max, acc, tFloat, rank);
            return xFloat || tFloat ? FloatControls.apply(src, f) : src;
        }, 5, true);
        b.queue.submit(name, r -> {
            r.dispatch(name, fillP, List.of(ib, out), CommandQueue.writes(1), params, groups(n), 1, 1);
            if (windows > 0) r.dispatch(name, addP, List.of(xb, sb, ib, out), CommandQueue.writes(3), params, groups(windows), 1, 1);
        });
    }

    private int groups(long count) { return groups(b.dev.features, count); }

    /** Work groups of {@link WindowScatterShader#GROUP} for a grid-stride loop over {@code count} items (the window kernels'). */
    static int groups(VulkanFeatures f, long count) {
        long g = (count + WindowScatterShader.GROUP - 1) / WindowScatterShader.GROUP;
        return (int) Math.max(1, Math.min(g, Math.min(f.maxWorkGroupCountX(), 65535)));
    }

    /** An F16/BF16 scatter as the F64 one between exact widening casts and one rounding cast back. */
    private DeviceBuffer viaF64(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        Buffer s64 = null, i64 = null, r = null;
        try {
            s64 = b.elementwise.cast(source, DType.F64);
            i64 = s64 == null ? null : b.elementwise.cast(init, DType.F64);
            r = i64 == null ? null : scatter(op, x, new Operand(s64, DType.F64, source.shape()), new Operand(i64, DType.F64, init.shape()), spec);
            return r == null ? null : b.elementwise.cast(new Operand(r, DType.F64, x.shape()), source.dtype());
        } finally {
            for (Buffer t : new Buffer[] {s64, i64, r}) if (t != null) t.release();
        }
    }
}
