package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.ReductionKernel;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ContractionOp;
import dev.jburn.op.ConvOp;
import dev.jburn.op.CreationOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ElementwiseOp;
import dev.jburn.op.IndexOp;
import dev.jburn.op.LinalgOp;
import dev.jburn.op.Op;
import dev.jburn.op.RandomOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.ShapeOp;
import dev.jburn.op.SortOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Capabilities;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What runs natively on the metal engine, op × dtype: the answer is the emitter's own check on a
 * representative kernel ({@link MetalKernels#source}), so it follows the dialect (no F64, no
 * {@code expm1}, ...). Everything else runs on the cpu engine, counted in {@code fallbackCounts()}.
 * Shape-dependent limits (more than 2^31 elements, overlapping float windows of a window scatter)
 * still fall back at run time and are counted.
 *
 * <pre>{@code
 * Engine.select("metal").capabilities().supports(UnaryOp.EXP, DType.F64); // false: MSL has no double
 * }</pre>
 */
final class MetalCapabilities implements Capabilities {
    private static final Shape FOUR = Shape.of(4);

    private final MetalKernels kernels;
    private final MetalFeatures features;
    /** Answers by {@code "op:dtype"}: the emitter runs once per pair. */
    private final Map<String, Boolean> answers = new ConcurrentHashMap<>();

    MetalCapabilities(MetalKernels kernels, MetalFeatures features) {
        this.kernels = kernels;
        this.features = features;
    }

    @Override
    public boolean supports(Op op, DType t) {
        return switch (op) {
            case UnaryOp u -> emits(u.opName(), t, () -> ElementwiseKernel.unary(u, t, u.resultType(t), FOUR));
            case BinaryOp b -> !MetalKernels.predicateArithmetic(b, t)
                    && emits(b.opName(), t, () -> ElementwiseKernel.binary(b, t, FOUR, FOUR, FOUR, b.resultType(t)));
            case ElementwiseOp e -> switch (e) {
                case SELECT -> emits("select", t, () -> ElementwiseKernel.select(FOUR, FOUR, FOUR, FOUR, t));
                case AS_TYPE -> castsFrom(t);
                case CLIP -> supports(BinaryOp.MIN, t) && supports(BinaryOp.MAX, t);
                case BITCAST -> true; // a view: no kernel
            };
            case ReduceOp r -> switch (r) {
                case SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, ALL, ANY -> reduces(r, t);
                case MEAN -> reduces(ReduceOp.SUM, t) && supports(BinaryOp.DIVIDE, t.toFloating());
                case ARGMAX, ARGMIN -> MetalIndexing.argReduces(t, DType.S32); // the index type of Tensor.argmax
                case LOG_SUM_EXP -> false;
            };
            case ShapeOp s -> switch (s) {
                case RESHAPE, SQUEEZE, NEW_AXIS -> true; // views
                // the emitter's strided loads, or MslMovement's strided copy for what they refuse: bits moved, f64 too
                case TRANSPOSE, BROADCAST, SLICE, PUT_SLICE, CONCATENATE, STACK, PAD, REVERSE, TILE -> true;
            };
            case ContractionOp c -> switch (c) {
                // MPSMatrixMultiplication for plain f32/f16 products; the rest of f32/f16/bf16 on simdgroup matrices (Apple7+); integers exact
                case DOT -> t == DType.F32 || t == DType.F16 || MetalDots.supports(t, features);
            };
            case CumulativeOp c -> MetalScans.supports(t);
            case IndexOp i -> switch (i) {
                // t is the gathered tensor's dtype (bits moved: every one); the index type is checked per call
                case GATHER, TAKE, TAKE_ALONG_AXIS, INDEXED_PUT -> true;
                case INDEXED_ADD -> MetalIndexing.updates(t, true);
            };
            case SortOp s -> true; // MslSort: keys from the bits, every dtype
            case CreationOp c -> switch (c) {
                case IOTA -> t != DType.PRED && (t == DType.U32 || emits("cast->" + t.shortName(), DType.U32, () -> ElementwiseKernel.cast(DType.U32, t, FOUR))); // MetalMovement.iota: a counter, then a cast
                case FULL, EYE, ARANGE, LINSPACE -> false; // composites of other ops
            };
            case RandomOp r -> false;
            case WindowOp w -> switch (w) {
                case WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> MetalWindows.supports(t); // overlapping float windows fall back at run time
                case WINDOW_SUM, WINDOW_PRODUCT, WINDOW_MAX, WINDOW_MIN -> false; // decomposed into slices and element-wise ops
            };
            case ConvOp c -> MetalConvs.supports(t); // MslConv, direct; f16/bf16 through f32
            case LinalgOp l -> false;
        };
    }

    private boolean castsFrom(DType from) {
        for (DType to : DType.values()) {
            if (!emits("cast->" + to.shortName(), from, () -> ElementwiseKernel.cast(from, to, FOUR))) return false;
        }
        return true;
    }

    private boolean reduces(ReduceOp r, DType t) {
        if (MetalKernels.predicateArithmetic(r, t)) return false;
        DType out = r == ReduceOp.ALL || r == ReduceOp.ANY ? DType.PRED : t;
        return answers.computeIfAbsent(r.opName() + ":" + t, k ->
                kernels.source(ReductionKernel.of(r, t, Shape.of(4, 4), new int[] {1}, out)).isPresent());
    }

    private boolean emits(String op, DType t, Supplier<ElementwiseKernel> kernel) {
        return answers.computeIfAbsent(op + ":" + t, k -> {
            try {
                return kernels.source(kernel.get()).isPresent();
            } catch (RuntimeException e) {
                return false; // the op is not defined on t (bitwise ops on floats)
            }
        });
    }
}
