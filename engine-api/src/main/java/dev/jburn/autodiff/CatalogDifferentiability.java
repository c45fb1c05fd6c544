package dev.jburn.autodiff;

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

import static dev.jburn.autodiff.Differentiability.DIFFERENTIABLE;
import static dev.jburn.autodiff.Differentiability.NOT_BUILT;
import static dev.jburn.autodiff.Differentiability.NOT_DIFFERENTIABLE;

/** The catalog view of differentiability: one answer per user-facing op (composites through their decomposition). */
final class CatalogDifferentiability {
    private CatalogDifferentiability() {}

    static Differentiability of(Op op) {
        return switch (op) {
            case UnaryOp u -> ElementwiseRules.differentiable(u) ? DIFFERENTIABLE : NOT_DIFFERENTIABLE;
            case BinaryOp b -> ElementwiseRules.differentiable(b) ? DIFFERENTIABLE : NOT_DIFFERENTIABLE;
            case ElementwiseOp e -> switch (e) {
                case SELECT, CLIP, AS_TYPE -> DIFFERENTIABLE;
                case BITCAST -> NOT_DIFFERENTIABLE;
            };
            case ReduceOp r -> switch (r) {
                case SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, MEAN, LOG_SUM_EXP -> DIFFERENTIABLE;
                case ALL, ANY, ARGMAX, ARGMIN -> NOT_DIFFERENTIABLE;
            };
            case CumulativeOp c -> switch (c) {
                case CUMULATIVE_SUM, CUMULATIVE_PRODUCT, CUMULATIVE_MAX, CUMULATIVE_MIN -> DIFFERENTIABLE;
            };
            case ShapeOp s -> switch (s) {
                case RESHAPE, TRANSPOSE, BROADCAST, SQUEEZE, NEW_AXIS, SLICE, PUT_SLICE, CONCATENATE, STACK, PAD, REVERSE, TILE -> DIFFERENTIABLE;
            };
            case IndexOp i -> switch (i) {
                case TAKE, TAKE_ALONG_AXIS, GATHER, INDEXED_ADD, INDEXED_PUT -> DIFFERENTIABLE;
            };
            case SortOp s -> switch (s) {
                case SORT, TOP_K -> DIFFERENTIABLE; // values; their indices are integers
                case ARGSORT -> NOT_DIFFERENTIABLE;
            };
            case ContractionOp c -> switch (c) {
                case DOT -> DIFFERENTIABLE;
            };
            case CreationOp c -> switch (c) {
                case FULL, IOTA, EYE, ARANGE, LINSPACE -> NOT_DIFFERENTIABLE;
            };
            case RandomOp r -> switch (r) {
                case THREEFRY_BITS, SPLIT, FOLD_IN, UNIFORM, NORMAL, RANDINT -> NOT_DIFFERENTIABLE;
            };
            case WindowOp w -> switch (w) {
                case WINDOW_SUM, WINDOW_MAX, WINDOW_MIN, WINDOW_PRODUCT, WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> DIFFERENTIABLE;
            };
            case ConvOp c -> switch (c) {
                case CONV, CONV_TRANSPOSE -> DIFFERENTIABLE;
            };
            case LinalgOp l -> switch (l) {
                // vector norms, and matrix norms other than the spectral/nuclear ones (which use svd), differentiate through their decomposition
                case NORM, CHOLESKY, TRIANGULAR_SOLVE, LU, QR, EIGH, SVD, SOLVE, INVERT, DETERMINANT -> DIFFERENTIABLE;
            };
        };
    }
}
