package dev.jburn.cuda;

import dev.jburn.DType;
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

/** What the cuda engine runs on the GPU, op × dtype: the truthful answer behind {@code capabilities()}. */
final class NativeOps {
    private NativeOps() {}

    static boolean supports(Op op, DType t) {
        return switch (op) {
            case ShapeOp s -> switch (s) {
                case RESHAPE, TRANSPOSE, BROADCAST, SLICE, REVERSE -> true;
                case SQUEEZE, NEW_AXIS, STACK, TILE, PUT_SLICE, CONCATENATE, PAD -> false;
            };
            case ContractionOp c -> CudaGemm.precision(t) != null;
            case UnaryOp u -> false;
            case BinaryOp b -> false;
            case ElementwiseOp e -> false;
            case ReduceOp r -> false;
            case CumulativeOp c -> false;
            case IndexOp i -> false;
            case SortOp s -> false;
            case CreationOp c -> false;
            case RandomOp r -> false;
            case WindowOp w -> false;
            case ConvOp c -> false;
            case LinalgOp l -> false;
        };
    }
}
