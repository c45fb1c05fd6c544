package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.kernels.WindowScatterPlan;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * {@code windowScatterMax/Min} (max-pool's gradient) on the GPU: {@link MslWindows}' select and scatter
 * kernels, equal to the cpu engine's results bit for bit. F16/BF16 operands compare and add as their
 * exact F32 values (the shared casts) and round once on the way back; F32 sources (and so F16/BF16)
 * run only where no two windows overlap (max pooling's usual case: MSL has no double for the cpu
 * engine's sums), F64 never. Window reductions need no kernel: the front end decomposes them into
 * slices and element-wise ops, which run here ({@link MetalMovement}, the shared emitter).
 */
final class MetalWindows {
    private final MetalBackend backend;
    private final MetalKernels kernels;

    MetalWindows(MetalBackend backend, MetalKernels kernels) {
        this.backend = backend;
        this.kernels = kernels;
    }

    /** Whether scatters of {@code t} can run here for some windows (overlapping F32/F16/BF16 ones fall back at run time). */
    static boolean supports(DType t) {
        return t == DType.F16 || t == DType.BF16 || MslWindows.accumulator(t, true) != null;
    }

    MetalBuffer scatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        boolean max = switch (op) {
            case WINDOW_SCATTER_MAX -> true;
            case WINDOW_SCATTER_MIN -> false;
            case WINDOW_SUM, WINDOW_PRODUCT, WINDOW_MAX, WINDOW_MIN -> throw new JBurnException(op.opName(), "is not a window scatter");
        };
        DType t = source.dtype();
        boolean disjoint = WindowScatterPlan.disjoint(spec);
        if ((t == DType.F16 || t == DType.BF16) && disjoint) return viaF32(max, x, source, init, spec);
        if (MslWindows.accumulator(t, disjoint) == null) return null;
        if (x.dtype() == DType.F16 || x.dtype() == DType.BF16) {
            try (MetalScratch s = kernels.scratch(op.opName())) {
                Operand wide = s.widened(x);
                return wide == null ? null : scatter(max, wide, source, init, spec);
            }
        }
        return scatter(max, x, source, init, spec);
    }

    /** {@code x} of a type the select compares exactly. */
    private MetalBuffer scatter(boolean max, Operand x, Operand source, Operand init, WindowSpec spec) {
        String name = max ? "windowScatterMax" : "windowScatterMin";
        MslWindows.Accumulator acc = MslWindows.accumulator(source.dtype(), WindowScatterPlan.disjoint(spec));
        int[] params = WindowScatterPlan.params(x.shape(), source.shape(), spec);
        if (acc == null || params == null || MslIndexing.compareType(x.dtype()) == null) return null;
        long n = x.size(), windows = params[1];
        if (n == 0) return backend.uninitialized(name, 0);
        MemorySegment select = kernels.pipeline(MslWindows.select(x.dtype(), max)), scatter = kernels.pipeline(MslWindows.scatter(acc));
        if (select == null || scatter == null) return null;
        MetalBuffer out = backend.uninitialized(name, source.dtype().byteSize(n));
        try (MetalScratch s = kernels.scratch(name)) {
            MetalDevice.SharedBuffer sel = s.space(4 * Math.max(1, windows)), words = s.parameters(params);
            if (windows > 0) kernels.launch(name, select, List.of(MetalChecks.operand(name, x).shared(), words, sel), windows);
            kernels.launch(name, scatter, List.of(MetalChecks.operand(name, source).shared(), MetalChecks.operand(name, init).shared(),
                    sel, words, out.shared()), n);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** An F16/BF16 scatter (disjoint windows) as the F32 one between exact widening casts and one rounding cast back. */
    private MetalBuffer viaF32(boolean max, Operand x, Operand source, Operand init, WindowSpec spec) {
        try (MetalScratch s = kernels.scratch(max ? "windowScatterMax" : "windowScatterMin")) {
            Operand s32 = s.widened(source), i32 = s32 == null ? null : s.widened(init);
            Operand xs = i32 == null ? null : x.dtype() == DType.F16 || x.dtype() == DType.BF16 ? s.widened(x) : x;
            return s.converted(xs == null ? null : scatter(max, xs, s32, i32, spec), DType.F32, x.shape(), source.dtype());
        }
    }
}
