package dev.jburn.conformance;

import dev.jburn.Engine;
import dev.jburn.ConvOptions;
import dev.jburn.LinAlg;
import dev.jburn.Padding;
import dev.jburn.WindowOptions;
import dev.jburn.Shape;
import dev.jburn.Tensor;
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

import java.util.List;
import java.util.function.Function;

/**
 * One generated gradient case per differentiable catalog op: a scalar F64 function of some
 * inputs drawn in the op's smooth domain (away from kinks and ties), for {@link GradientContract};
 * and {@link #edges} at the exact zeros, ties and boundaries where backward rules break.
 */
public final class GradientCases {
    private GradientCases() {}

    /** A function to differentiate and its inputs. */
    public record GradientCase(String name, Function<List<Tensor>, Tensor> f, List<Tensor> inputs) {}

    /**
     * The case for {@code op} with inputs from {@code seed}, or {@code null} when {@code op} has
     * no float gradient to check by finite differences (it is marked not differentiable or not
     * built, or, for {@code asType}, is checked exactly instead).
     */
    public static GradientCase of(Op op, long seed, Engine e) {
        Gen g = new Gen(seed, e);
        Tensor x23 = g.uniform(-1.5, 1.5, 2, 3);
        return switch (op) {
            case UnaryOp u -> switch (u) {
                case LOG, LOG1P, SQRT, RSQRT, CBRT -> unary(u, g.uniform(0.2, 2.5, 2, 3));
                case ASIN, ACOS, ATANH, ERF_INV -> unary(u, g.uniform(-0.8, 0.8, 2, 3));
                case ACOSH -> unary(u, g.uniform(1.2, 3, 2, 3));
                case ABS -> unary(u, g.uniform(0.3, 1.5, 2, 3).multiply(Tensor.of(1.0, -1.0, 1.0).to(e)));
                case NEGATE, EXP, EXPM1, SIN, COS, TAN, ATAN, SINH, COSH, TANH, ASINH, SIGMOID, ERF, ERFC -> unary(u, x23);
                case SIGN, FLOOR, CEIL, ROUND, IS_NAN, IS_INFINITY, LOGICAL_NOT, BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> null;
            };
            case BinaryOp b -> switch (b) {
                case ADD, SUBTRACT, MULTIPLY, DIVIDE, POW, ATAN2, MIN, MAX, REMAINDER ->
                        new GradientCase(b.opName(), xs -> xs.get(0).apply(b, xs.get(1)), List.of(g.uniform(0.5, 2, 2, 3), g.uniform(0.6, 1.9, 3)));
                case QUOTIENT, EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR,
                     BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> null;
            };
            case ElementwiseOp w -> switch (w) {
                case SELECT -> {
                    Tensor p = g.uniform(-1, 1, 2, 3).greater(0);
                    yield new GradientCase("select", xs -> p.select(xs.get(0), xs.get(1)), List.of(x23, g.uniform(-1, 1, 3)));
                }
                case CLIP -> unaryFn("clip", t -> t.clip(-0.5, 0.5), x23);
                case AS_TYPE -> null; // rounding defeats finite differences: GradientContract checks casts exactly
                case BITCAST -> null;
            };
            case ReduceOp r -> {
                Tensor x = g.uniform(0.5, 1.5, 2, 3, 4);
                yield switch (r) {
                    case SUM -> unaryFn("sum", t -> t.sum(new int[] {0, 2}), x);
                    case PRODUCT -> unaryFn("product", t -> t.product(new int[] {1}), x);
                    case REDUCE_MAX -> unaryFn("max", t -> t.max(new int[] {2}), x);
                    case REDUCE_MIN -> unaryFn("min", t -> t.min(new int[] {0, 1}), x);
                    case MEAN -> unaryFn("mean", t -> t.mean(new int[] {1}), x);
                    case LOG_SUM_EXP -> unaryFn("logSumExp", t -> t.logSumExp(new int[] {2}), x);
                    case ALL, ANY, ARGMAX, ARGMIN -> null;
                };
            }
            case CumulativeOp c -> switch (c) {
                case CUMULATIVE_SUM -> unaryFn("cumulativeSum", t -> t.cumulativeSum(1, seed % 2 == 0), g.uniform(0.5, 1.5, 3, 4));
                case CUMULATIVE_PRODUCT -> unaryFn("cumulativeProduct", t -> t.cumulativeProduct(0, seed % 2 == 0), g.uniform(0.5, 1.5, 3, 4));
                case CUMULATIVE_MAX -> unaryFn("cumulativeMax", t -> t.cumulativeMax(1, seed % 2 == 0), g.uniform(-1, 1, 3, 6));
                case CUMULATIVE_MIN -> unaryFn("cumulativeMin", t -> t.cumulativeMin(0, seed % 2 == 1), g.uniform(-1, 1, 5, 2));
            };
            case ShapeOp s -> {
                Tensor x = g.uniform(-1, 1, 2, 3, 4);
                yield switch (s) {
                    case RESHAPE -> unaryFn("reshape", t -> t.reshape(6, 4), x);
                    case TRANSPOSE -> unaryFn("transpose", t -> t.transpose(2, 0, 1), x);
                    case BROADCAST -> unaryFn("broadcast", t -> t.broadcast(Shape.of(3, 2, 3, 1), new int[] {1, 2, 3}), g.uniform(-1, 1, 2, 3, 1));
                    case SQUEEZE -> unaryFn("squeeze", Tensor::squeeze, g.uniform(-1, 1, 2, 1, 3));
                    case NEW_AXIS -> unaryFn("newAxis", t -> t.newAxis(1), x);
                    case SLICE -> unaryFn("slice", t -> t.slice(new int[] {0, 1, 0}, new int[] {2, 2, 4}, new int[] {1, 1, 2}), x);
                    case PUT_SLICE -> new GradientCase("putSlice", xs -> xs.get(0).putSlice(new int[] {0, 1, 1}, xs.get(1)), List.of(x, g.uniform(-1, 1, 1, 2, 2)));
                    case CONCATENATE -> new GradientCase("concatenate", xs -> Tensor.concatenate(1, xs.get(0), xs.get(1)), List.of(x, g.uniform(-1, 1, 2, 2, 4)));
                    case STACK -> new GradientCase("stack", xs -> Tensor.stack(0, xs.get(0), xs.get(1)), List.of(x, g.uniform(-1, 1, 2, 3, 4)));
                    case PAD -> new GradientCase("pad", xs -> xs.get(0).pad(xs.get(1), new int[][] {{1, -1, 1}, {0, 2, 0}, {-1, 1, 2}}), List.of(x, g.uniform(-1, 1)));
                    case REVERSE -> unaryFn("reverse", t -> t.reverse(0, 2), x);
                    case TILE -> unaryFn("tile", t -> t.tile(2, 1, 1), x);
                };
            }
            case IndexOp i -> {
                Tensor x = g.uniform(-1, 1, 4, 3);
                Tensor rows = Tensor.of(new int[][] {{1}, {3}, {1}}).to(e);
                yield switch (i) {
                    case TAKE -> unaryFn("take", t -> t.take(Tensor.of(2, 0, 2).to(e), 1), x);
                    case TAKE_ALONG_AXIS -> unaryFn("takeAlongAxis", t -> t.takeAlongAxis(Tensor.of(new int[][] {{1}, {0}, {2}, {2}}).to(e), 1), x);
                    case GATHER -> unaryFn("gather", t -> t.gather(rows), x);
                    case INDEXED_ADD -> new GradientCase("indexedAdd", xs -> xs.get(0).indexedAdd(rows, xs.get(1)), List.of(x, g.uniform(-1, 1, 3, 3)));
                    case INDEXED_PUT -> new GradientCase("indexedPut", xs -> xs.get(0).indexedPut(Tensor.of(new int[][] {{0}, {2}}).to(e), xs.get(1)),
                            List.of(x, g.uniform(-1, 1, 2, 3)));
                };
            }
            case SortOp s -> switch (s) {
                case SORT -> unaryFn("sort", t -> t.sort(1), g.uniform(-1, 1, 3, 5));
                case TOP_K -> unaryFn("topK", t -> t.topK(2).values(), g.uniform(-1, 1, 3, 5));
                case ARGSORT -> null;
            };
            case ContractionOp c -> switch (c) {
                case DOT -> new GradientCase("dot", xs -> xs.get(0).dot(new int[] {1}, new int[] {0}, xs.get(1), new int[] {2}, new int[] {0}),
                        List.of(g.uniform(-1, 1, 2, 4, 3), g.uniform(-1, 1, 2, 5, 4)));
            };
            case CreationOp c -> null;
            case RandomOp r -> null;
            case WindowOp w -> {
                WindowOptions opts = WindowOptions.defaults().withStrides(1, 2).withPadding(Padding.explicit(new int[] {1, 0}, new int[] {0, 1}));
                Tensor x = g.uniform(-1, 1, 4, 5);
                yield switch (w) {
                    case WINDOW_SUM -> unaryFn("windowSum", t -> t.windowSum(new int[] {2, 3}, opts.withDilations(1, 2)), x);
                    case WINDOW_MAX -> seed % 2 == 0 ? unaryFn("windowMax", t -> t.windowMax(new int[] {2, 2}, opts), x)
                            : unaryFn("windowMax dilated", t -> t.windowMax(new int[] {2, 2}, opts.withDilations(2, 1)), x);
                    case WINDOW_MIN -> seed % 2 == 0 ? unaryFn("windowMin", t -> t.windowMin(new int[] {3, 2}, opts), x)
                            : unaryFn("windowMin dilated", t -> t.windowMin(new int[] {2, 2}, opts.withDilations(1, 2)), x);
                    case WINDOW_PRODUCT -> unaryFn("windowProduct", t -> t.windowProduct(new int[] {2, 3}, opts.withDilations(1, 2)),
                            g.uniform(0.5, 1.5, 4, 5).multiply(g.uniform(-1, 1, 4, 5).greater(-0.7).select(1.0, 0.0)));
                    case WINDOW_SCATTER_MAX -> new GradientCase("windowScatterMax", xs -> xs.get(0).windowScatterMax(xs.get(1), 0.5,
                            new int[] {2, 2}, WindowOptions.defaults().withStrides(2, 2)), List.of(g.uniform(-1, 1, 4, 6), g.uniform(-1, 1, 2, 3)));
                    case WINDOW_SCATTER_MIN -> new GradientCase("windowScatterMin", xs -> xs.get(0).windowScatterMin(xs.get(1), 0.0,
                            new int[] {3, 2}, WindowOptions.defaults().withStrides(1, 2)), List.of(g.uniform(-1, 1, 4, 6), g.uniform(-1, 1, 2, 3)));
                };
            }
            case ConvOp c -> switch (c) {
                case CONV -> seed % 2 == 0
                        ? new GradientCase("conv", xs -> xs.get(0).conv(xs.get(1), ConvOptions.defaults().withStrides(2, 1)
                                .withPadding(Padding.explicit(new int[] {1, 0}, new int[] {1, 1})).withKernelDilation(1, 2)),
                                List.of(g.uniform(-1, 1, 2, 2, 5, 5), g.uniform(-1, 1, 3, 2, 2, 2)))
                        : new GradientCase("conv batch-grouped", xs -> xs.get(0).conv(xs.get(1), ConvOptions.defaults().withBatchGroupSize(2)
                                .withPadding(Padding.explicit(new int[] {1, 0}, new int[] {0, 1}))),
                                List.of(g.uniform(-1, 1, 4, 2, 4, 4), g.uniform(-1, 1, 6, 2, 2, 2)));
                case CONV_TRANSPOSE -> new GradientCase("convTranspose", xs -> xs.get(0).convTranspose(xs.get(1), ConvOptions.defaults().withStrides(2)),
                        List.of(g.uniform(-1, 1, 1, 2, 4, 3), g.uniform(-1, 1, 2, 3, 2, 2)));
            };
            case LinalgOp l -> switch (l) {
                case NORM -> unaryFn("norm", LinAlg::norm, g.uniform(0.5, 1.5, 5));
                case CHOLESKY -> {
                    Tensor m = g.uniform(-1, 1, 3, 3);
                    Tensor spd = m.dot(m.transpose()).add(Tensor.eye(3, dev.jburn.DType.F64).to(e).multiply(3.0));
                    yield unaryFn("cholesky", LinAlg::cholesky, spd);
                }
                case TRIANGULAR_SOLVE -> new GradientCase("triangularSolve", xs -> LinAlg.triangularSolve(xs.get(0), xs.get(1), seed % 2 == 0, true, seed == 1),
                        List.of(g.uniform(-1, 1, 3, 3).add(Tensor.eye(3, dev.jburn.DType.F64).to(e).multiply(4.0)), g.uniform(-1, 1, 3, 2)));
                // Diagonally dominant / well-separated inputs keep pivots and eigenvalue order fixed near the point.
                case LU -> unaryFn("lu", t -> {
                    LinAlg.LU f = LinAlg.lu(t);
                    return Tensor.concatenate(0, f.l().reshape(-1), f.u().reshape(-1));
                }, g.uniform(-1, 1, 3, 3).add(Tensor.eye(3, dev.jburn.DType.F64).to(e).multiply(4.0)));
                case QR -> unaryFn("qr", t -> {
                    LinAlg.QR f = LinAlg.qr(t);
                    return Tensor.concatenate(0, f.q().reshape(-1), f.r().reshape(-1));
                }, g.uniform(-1, 1, 4, 3));
                case EIGH -> unaryFn("eigh", t -> {
                    LinAlg.Eigh f = LinAlg.eigh(t.add(t.transpose()).multiply(0.5));
                    Tensor v = f.eigenvectors();
                    return Tensor.concatenate(0, f.eigenvalues(), v.multiply(v).reshape(-1)); // v∘v: blind to each vector's sign
                }, g.uniform(-0.5, 0.5, 3, 3).add(Tensor.of(new double[][] {{0, 0, 0}, {0, 3, 0}, {0, 0, 6}}).to(e)));
                case SOLVE -> new GradientCase("solve", xs -> LinAlg.solve(xs.get(0), xs.get(1)),
                        List.of(g.uniform(-1, 1, 4, 4).add(Tensor.eye(4, dev.jburn.DType.F64).to(e).multiply(4.0)), g.uniform(-1, 1, 4, 2)));
                case INVERT -> unaryFn("invert", LinAlg::invert,
                        g.uniform(-1, 1, 4, 4).add(Tensor.eye(4, dev.jburn.DType.F64).to(e).multiply(4.0)));
                case DETERMINANT -> unaryFn("determinant", LinAlg::determinant,
                        g.uniform(-1, 1, 4, 4).add(Tensor.eye(4, dev.jburn.DType.F64).to(e).multiply(2.0)));
                case SVD -> unaryFn("svd", t -> {
                    LinAlg.SVD f = LinAlg.svd(t, false);
                    Tensor u = f.u(), vt = f.vt();
                    return Tensor.concatenate(0, f.s(), u.multiply(u).reshape(-1), vt.multiply(vt).reshape(-1)); // squares: blind to signs
                }, seed % 2 == 0 ? g.uniform(-1, 1, 4, 3).add(Tensor.of(new double[][] {{3, 0, 0}, {0, 1.5, 0}, {0, 0, 0.5}, {0, 0, 0}}).to(e))
                        : g.uniform(-1, 1, 2, 4).add(Tensor.of(new double[][] {{3, 0, 0, 0}, {0, 1, 0, 0}}).to(e)));
            };
        };
    }

    /**
     * Cases at the points where backward rules break: exact zeros (of products, cumulative products,
     * powers, norms, and of the inputs of smooth ops), ties (of max/min, their reductions and running
     * and window forms, of sorts) and the boundaries of {@code clip} and of the comparisons that drive
     * a {@code select}. Empty for ops with no such point in their domain, or whose derivative there is
     * infinite ({@code log}, {@code sqrt}, {@code rsqrt}, {@code cbrt} at 0). {@link GradientContract}
     * checks them against central differences where the function is smooth and against the one-sided
     * differences at a kink, where any value between them (a subgradient) is accepted.
     */
    public static List<GradientCase> edges(Op op, Engine e) {
        return switch (op) {
            case UnaryOp u -> switch (u) {
                // abs has its kink at 0 (sign(0) = 0); the others are smooth through 0
                case ABS, NEGATE, EXP, EXPM1, LOG1P, SIN, COS, TAN, ATAN, SINH, COSH, TANH, ASINH, SIGMOID, ERF, ERFC, ASIN, ACOS,
                     ATANH, ERF_INV -> List.of(named(u.opName() + " at 0", unary(u, at(e, 0, -0.0, 0.5, -0.5, 0, 0.25))));
                case LOG, SQRT, RSQRT, CBRT, ACOSH, SIGN, FLOOR, CEIL, ROUND, IS_NAN, IS_INFINITY, LOGICAL_NOT, BITWISE_NOT,
                     POPULATION_COUNT, COUNT_LEADING_ZEROS -> List.of();
            };
            case BinaryOp b -> switch (b) {
                case MULTIPLY -> List.of(binary(b, "at zeros", at(e, 0, 0, 2, -1, 0, 0.5), at(e, 0, 3, 0, 0, -2, 0.5)));
                case DIVIDE -> List.of(binary(b, "of zeros", at(e, 0, -0.0, 0, 1.5), at(e, 2, -1, 0.5, 0.7)));
                case POW -> {
                    Tensor exponents = at(e, 0, 1, 2, 3);
                    yield List.of(
                            new GradientCase("pow at base 0, exponents 0..3", xs -> xs.get(0).pow(exponents), List.of(at(e, 0, 0, 0, 0))),
                            new GradientCase("pow(x, 0)", xs -> xs.get(0).pow(0.0), List.of(at(e, 0, 1, -1, 2))),
                            binary(b, "at base 0 and exponent 0", at(e, 0, 0, 0, 2, 0.5, 1.5), at(e, 1, 2, 3, 0, 0, 2)));
                }
                case MAX, MIN -> List.of(binary(b, "at ties", at(e, 1, 0, -1, 2, 0.5, -0.0), at(e, 1, 0, 0.5, 2, -0.5, 0)),
                        binary(b, "at ties, broadcast", at(e, new double[][] {{1, 0, 2}, {0, 0, 1}}), at(e, 1, 0, 1)));
                case ATAN2 -> List.of(binary(b, "on the axes", at(e, 0, 0, 1, -1), at(e, 1, -1, 0, 0)));
                case REMAINDER -> List.of(binary(b, "of zeros", at(e, 0, -0.0, 0), at(e, 1.5, 0.7, -2)));
                case ADD, SUBTRACT, QUOTIENT, EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, LOGICAL_AND, LOGICAL_OR,
                     LOGICAL_XOR, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> List.of();
            };
            case ElementwiseOp w -> switch (w) {
                case CLIP -> List.of(
                        unaryFn("clip at its bounds", t -> t.clip(-0.5, 0.5), at(e, -0.5, 0.5, 0, -1, 1, 0.25)),
                        // x on lo at 0, 2, 4 and on hi at 1, 3, 5
                        new GradientCase("clip at tensor bounds", xs -> xs.get(0).clip(xs.get(1), xs.get(2)),
                                List.of(at(e, -0.5, 0.5, 0, 2, -2, 1), at(e, -0.5, -1, 0, -1, -2, 0), at(e, 0.5, 0.5, 1, 2, 1, 1))));
                case SELECT -> List.of(
                        unaryFn("relu by select at 0", t -> t.lessEqual(0.0).select(0.0, t), at(e, 0, -0.0, 1, -1)),
                        unaryFn("leaky relu by select at 0", t -> t.greater(0.0).select(t, t.multiply(0.1)), at(e, 0, 0.5, -0.5, -0.0)),
                        new GradientCase("max by select at ties", xs -> xs.get(0).greaterEqual(xs.get(1)).select(xs.get(0), xs.get(1)),
                                List.of(at(e, 1, 0, -1, 2), at(e, 1, 0, 0.5, 2))));
                case AS_TYPE, BITCAST -> List.of();
            };
            case ReduceOp r -> {
                // rows (along the last axis) with one zero, two zeros, all zeros and none
                Tensor zeros = at(e, 2, 0, 3, 1.5, 1.5, -2, 0, 1, 0, 2, 0.5, 3, 0, 0, 0, -1, 0, 0.5).reshape(3, 2, 3);
                Tensor ties = at(e, new double[][] {{1, 3, 3, 0}, {2, 2, 2, 2}, {-1, 0, -1, 0.5}}).reshape(3, 2, 2);
                yield switch (r) {
                    case PRODUCT -> List.of(unaryFn("product at zeros", t -> t.product(new int[] {2}), zeros),
                            unaryFn("product at zeros, axes 0 and 2", t -> t.product(new int[] {0, 2}), zeros),
                            unaryFn("product at zeros, all axes", t -> t.product(), at(e, 2, 0, 3)));
                    case REDUCE_MAX -> List.of(unaryFn("max at ties", t -> t.max(new int[] {2}), ties),
                            unaryFn("max at ties, all axes", t -> t.max(), ties));
                    case REDUCE_MIN -> List.of(unaryFn("min at ties", t -> t.min(new int[] {1, 2}), ties));
                    case LOG_SUM_EXP -> List.of(unaryFn("logSumExp at ties", t -> t.logSumExp(new int[] {2}), ties));
                    case SUM, MEAN, ALL, ANY, ARGMAX, ARGMIN -> List.of();
                };
            }
            case CumulativeOp c -> {
                Tensor zeros = at(e, new double[][] {{2, 0, 3, 4}, {0, 1, 2, 0}, {1.5, 2, 0, 0}});
                Tensor ties = at(e, new double[][] {{1, 1, 0.5, 2, 2, 0}, {0, 0, 0, -1, 0, 1}});
                yield switch (c) {
                    case CUMULATIVE_PRODUCT -> List.of(unaryFn("cumulativeProduct at zeros", t -> t.cumulativeProduct(1), zeros),
                            unaryFn("cumulativeProduct at zeros, reverse", t -> t.cumulativeProduct(1, true), zeros),
                            unaryFn("cumulativeProduct at zeros, axis 0", t -> t.cumulativeProduct(0), zeros),
                            unaryFn("cumulativeProduct at zeros, axis 0, reverse", t -> t.cumulativeProduct(0, true), zeros));
                    case CUMULATIVE_MAX -> List.of(unaryFn("cumulativeMax at ties", t -> t.cumulativeMax(1), ties),
                            unaryFn("cumulativeMax at ties, reverse", t -> t.cumulativeMax(1, true), ties));
                    case CUMULATIVE_MIN -> List.of(unaryFn("cumulativeMin at ties", t -> t.cumulativeMin(1), ties),
                            unaryFn("cumulativeMin at ties, reverse", t -> t.cumulativeMin(1, true), ties));
                    case CUMULATIVE_SUM -> List.of();
                };
            }
            case SortOp s -> {
                // pairs of equal values only: in a three-way tie the middle element's slot is no one-sided limit along its own axis
                Tensor ties = at(e, new double[][] {{1, 1, 0, 2, -1}, {0.5, -0.5, -0.5, 0.3, 0.9}, {2, 0, 0, 1, 1}});
                yield switch (s) {
                    case SORT -> List.of(unaryFn("sort at ties", t -> t.sort(1), ties));
                    case TOP_K -> List.of(unaryFn("topK at ties", t -> t.topK(2).values(), ties));
                    case ARGSORT -> List.of();
                };
            }
            case WindowOp w -> {
                WindowOptions opts = WindowOptions.defaults().withStrides(1, 2).withPadding(Padding.explicit(new int[] {1, 0}, new int[] {0, 1}));
                // values from {-1, 0, 1}: windows with two and more tied extremes
                Tensor ties = at(e, new double[][] {{0, 1, 1, 0, -1}, {1, 0, 1, 1, 0}, {-1, -1, 0, 0, 1}, {0, 0, 0, -1, -1}});
                yield switch (w) {
                    case WINDOW_MAX -> List.of(unaryFn("windowMax at ties", t -> t.windowMax(new int[] {2, 2}, opts), ties),
                            unaryFn("windowMax at ties, dilated", t -> t.windowMax(new int[] {2, 2}, opts.withDilations(2, 1)), ties));
                    case WINDOW_MIN -> List.of(unaryFn("windowMin at ties", t -> t.windowMin(new int[] {3, 2}, opts), ties),
                            unaryFn("windowMin at ties, dilated", t -> t.windowMin(new int[] {2, 2}, opts.withDilations(1, 2)), ties));
                    case WINDOW_PRODUCT -> List.of(unaryFn("windowProduct at zeros", t -> t.windowProduct(new int[] {2, 2}, opts), ties));
                    case WINDOW_SUM, WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> List.of();
                };
            }
            case LinalgOp l -> switch (l) {
                case NORM -> List.of(unaryFn("norm of zeros", LinAlg::norm, at(e, 0, 0, 0)),
                        unaryFn("norm with zeros", LinAlg::norm, at(e, 0, 3, 0, -4)),
                        unaryFn("row norms, a zero row", t -> LinAlg.norm(t, LinAlg.Ord.DEFAULT, new int[] {1}, false),
                                at(e, new double[][] {{0, 0, 0}, {3, 0, 4}})),
                        unaryFn("3-norm of zeros", t -> LinAlg.norm(t, LinAlg.Ord.p(3)), at(e, 0, 0)));
                default -> List.of();
            };
            case ShapeOp s -> List.of();
            case IndexOp i -> List.of();
            case ContractionOp c -> List.of();
            case CreationOp c -> List.of();
            case RandomOp r -> List.of();
            case ConvOp c -> List.of();
        };
    }

    private static GradientCase named(String name, GradientCase c) { return new GradientCase(name, c.f(), c.inputs()); }

    private static GradientCase binary(BinaryOp op, String what, Tensor a, Tensor b) {
        return new GradientCase(op.opName() + " " + what, xs -> xs.get(0).apply(op, xs.get(1)), List.of(a, b));
    }

    private static Tensor at(Engine e, double... v) { return Tensor.of(v).to(e); }

    private static Tensor at(Engine e, double[][] v) { return Tensor.of(v).to(e); }

    private static GradientCase unary(UnaryOp op, Tensor x) {
        return new GradientCase(op.opName(), xs -> xs.get(0).apply(op), List.of(x));
    }

    private static GradientCase unaryFn(String name, Function<Tensor, Tensor> f, Tensor x) {
        return new GradientCase(name, xs -> f.apply(xs.get(0)), List.of(x));
    }

    /** Seeded F64 inputs on the engine under test. */
    private record Gen(java.util.Random r, Engine e) {
        Gen(long seed, Engine e) { this(new java.util.Random(seed), e); }

        Tensor uniform(double lo, double hi, int... dims) {
            int n = 1;
            for (int d : dims) n *= d;
            double[] v = new double[n];
            for (int i = 0; i < n; i++) v[i] = lo + (hi - lo) * r.nextDouble();
            return Tensor.of(v).reshape(dims).to(e);
        }
    }
}
