package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.graph.Prim;
import dev.jburn.graph.ShapeInference;
import dev.jburn.graph.TensorType;
import dev.jburn.kernels.WindowScatterPlan;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.util.List;

/**
 * {@code windowMax/Min} of f32 in one dispatch: each invocation walks one window of {@code x} in row-major order
 * (padding skipped: the identity it stands for changes nothing) and folds it with the element-wise kernels'
 * {@code jb_max/jb_min} rules (a NaN wins; of -0 and +0 the max is +0, the min -0), so the result equals the front end's
 * decomposition into strided slices and element-wise extremes, which the engine ran before: the small CNN's two 2×2
 * max pools were four slices and a fused max each, ten dispatches of its training step instead of two. A window of
 * padding only gives the identity (-Inf for max, +Inf for min). Parameters: {@link WindowScatterPlan#params}.
 */
final class WindowExtremeKernels {
    private final VulkanBackend b;

    WindowExtremeKernels(VulkanBackend b) { this.b = b; }

    /** Whether window extremes of {@code t} run here (f32; the rest stays decomposed). */
    static boolean supports(DType t) { return t == DType.F32; }

    /** The result, or {@code null} to fall back (another type or op, rank past 8, indices past 32 bits). */
    DeviceBuffer reduce(WindowOp op, Operand x, WindowSpec spec) {
        boolean max;
        switch (op) {
            case WINDOW_MAX -> max = true;
            case WINDOW_MIN -> max = false;
            default -> { return null; }
        }
        if (!supports(x.dtype()) || spec.rank() != x.shape().rank()) return null;
        Shape out = ShapeInference.infer(new Prim.WindowReduce(op, spec), List.of(new TensorType(x.dtype(), x.shape()))).getFirst().shape();
        int[] params = WindowScatterPlan.params(x.shape(), out, spec);
        if (params == null) return null;
        long n = out.size();
        MovementKernels m = b.movement;
        if (!m.bindable(4 * n) || !m.bindable(x.buffer().byteSize())) return null;
        String name = op.opName();
        DeviceBuffer y = b.memory.allocateUninitialized(name, 4 * n);
        if (n == 0) return y;
        try {
            DeviceBuffer xb = VulkanBackend.device(x.buffer(), name);
            int rank = x.shape().rank();
            Pipelines.Pipeline p = b.pipelines.get(name, "windowExtreme", List.of("windowExtreme", max, rank),
                    () -> FloatControls.apply(source(max, rank), b.dev.features), 3, true);
            int groups = WindowScatterKernels.groups(b.dev.features, n);
            b.queue.submit(name, r -> r.dispatch(name, p, List.of(xb, y), CommandQueue.writes(1), params, groups, 1, 1));
            return y;
        } catch (RuntimeException e) {
            y.release();
            throw e;
        }
    }

    /** Bindings: 0 x, 1 output (one per window), 2 parameters. */
    static String source(boolean max, int rank) {
        String fold = max
                ? "if (isnan(acc) || isnan(v)) acc = acc + v; else if (v > acc) acc = v; else if (!(acc > v) && signbit(acc)) acc = v;"
                : "if (isnan(acc) || isnan(v)) acc = acc + v; else if (v < acc) acc = v; else if (!(acc < v) && !signbit(acc)) acc = v;";
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                // jburn window %1$s, f32: each window folded in row-major order, padding skipped
                layout(local_size_x = %2$d) in;
                layout(std430, binding = 0) readonly buffer X { float x[]; };
                layout(std430, binding = 1) writeonly buffer Y { float y[]; };
                layout(std430, binding = 2) readonly buffer Params { uint p[]; };
                bool signbit(float v) { return (floatBitsToUint(v) & 0x80000000u) != 0u; }
                void main() {
                    RANK_DECL
                    uint windows = p[1], windowSize = p[3];
                    for (uint w = gl_GlobalInvocationID.x; w < windows; w += gl_NumWorkGroups.x * %2$du) {
                        float acc = uintBitsToFloat(%3$s);
                %4$s
                        y[w] = acc;
                    }
                }
                """.formatted(max ? "max" : "min", WindowScatterShader.GROUP, max ? "0xff800000u" : "0x7f800000u", WindowScatterShader.windowPositions("""
                        float v = x[uint(off)];
                        %s
                        """.formatted(fold))).replace("RANK_DECL", WindowScatterShader.rankDecl(rank));
    }
}
