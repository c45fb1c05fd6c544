package dev.jburn.cuda;

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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/** What the cuda engine runs on the GPU, op × dtype: the truthful answer behind {@code capabilities()}. */
final class NativeOps {
    private static final Shape ONE = Shape.of(1);
    /** Answers computed once: asking the emitter builds a kernel's source. */
    private static final Map<String, Boolean> ANSWERS = new ConcurrentHashMap<>();

    private NativeOps() {}

    private static boolean cached(Op op, DType t, BooleanSupplier answer) {
        String key = op.opName() + ":" + t.shortName();
        Boolean b = ANSWERS.get(key);
        if (b == null) {
            b = answer.getAsBoolean();
            ANSWERS.put(key, b);
        }
        return b;
    }

    static boolean supports(Op op, DType t) {
        return switch (op) {
            case ShapeOp s -> switch (s) {
                case RESHAPE, TRANSPOSE, BROADCAST, SLICE, REVERSE, PUT_SLICE, CONCATENATE, PAD, SQUEEZE, NEW_AXIS, STACK, TILE -> true;
            };
            case ContractionOp c -> CudaGemm.precision(t) != null;
            case UnaryOp u -> cached(op, t, () -> GeneratedKernels.emits(() -> ElementwiseKernel.unary(u, t, u.resultType(t), ONE)));
            case BinaryOp b -> cached(op, t, () -> GeneratedKernels.emits(() -> ElementwiseKernel.binary(b, t, ONE, ONE, ONE, b.resultType(t))));
            case ElementwiseOp e -> switch (e) {
                case SELECT -> cached(op, t, () -> GeneratedKernels.emits(() -> ElementwiseKernel.select(ONE, ONE, ONE, ONE, t)));
                case AS_TYPE -> cached(op, t, () -> GeneratedKernels.emits(() -> ElementwiseKernel.cast(t, DType.F32, ONE)));
                case CLIP -> supports(BinaryOp.MIN, t) && supports(BinaryOp.MAX, t);
                case BITCAST -> true;
            };
            case ReduceOp r -> switch (r) {
                case SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, ALL, ANY -> cached(op, t, () -> GeneratedKernels.emitsReduction(
                        () -> ReductionKernel.of(r, t, Shape.of(1, 2), new int[] {1}, r == ReduceOp.ALL || r == ReduceOp.ANY ? DType.PRED : t)));
                case MEAN, LOG_SUM_EXP -> supports(ReduceOp.SUM, t);
                case ARGMAX, ARGMIN -> true;
            };
            case CumulativeOp c -> LineKernels.scans(t);
            case IndexOp i -> switch (i) {
                case GATHER, TAKE, TAKE_ALONG_AXIS -> true;
                case INDEXED_PUT -> true;
                case INDEXED_ADD -> GatherKernels.adds(t);
            };
            case SortOp s -> switch (s) {
                case SORT, ARGSORT, TOP_K -> true;
            };
            case CreationOp c -> switch (c) {
                case IOTA, ARANGE -> LineKernels.iotas(t);
                case FULL, EYE, LINSPACE -> false;
            };
            case RandomOp r -> false;
            case WindowOp w -> WindowPlan.covers(w, t);
            case ConvOp c -> CudaGemm.precision(t) != null;
            case LinalgOp l -> false;
        };
    }
}
