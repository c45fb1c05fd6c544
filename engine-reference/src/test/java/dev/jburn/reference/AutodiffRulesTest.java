package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static dev.jburn.reference.AutodiffTestSupport.assertGradMatchesFiniteDifferences;
import static dev.jburn.reference.AutodiffTestSupport.uniform;
import static dev.jburn.reference.AutodiffTestSupport.weighted;

/** Every backward rule against central finite differences in F64, on random inputs. */
class AutodiffRulesTest {

    private static void check(String what, Function<List<Tensor>, Tensor> f, Tensor... xs) {
        assertGradMatchesFiniteDifferences(what, weighted(f, 99), xs);
    }

    @Test
    void unaryOps() {
        Tensor general = uniform(1, -1.5, 1.5, 2, 3);
        Tensor positive = uniform(2, 0.2, 2.5, 2, 3);
        Tensor unit = uniform(3, -0.8, 0.8, 2, 3);
        Tensor aboveOne = uniform(4, 1.2, 3.0, 2, 3);
        Tensor awayFromZero = uniform(5, 0.3, 1.5, 2, 3).multiply(Tensor.of(1.0, -1.0, 1.0));
        for (UnaryOp op : UnaryOp.values()) {
            Tensor x = switch (op) {
                case LOG, LOG1P, SQRT, RSQRT, CBRT -> positive;
                case ASIN, ACOS, ATANH, ERF_INV -> unit;
                case ACOSH -> aboveOne;
                case ABS -> awayFromZero;
                case EXP, EXPM1, NEGATE, SIN, COS, TAN, ATAN, SINH, COSH, TANH, ASINH, SIGMOID, ERF, ERFC -> general;
                case SIGN, FLOOR, CEIL, ROUND -> general.multiply(3.0); // piecewise constant: zero gradient
                case IS_NAN, IS_INFINITY, LOGICAL_NOT, BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> null;
            };
            if (x == null) continue;
            check(op.name(), xs -> xs.get(0).apply(op), x);
        }
    }

    @Test
    void binaryOpsWithBroadcasting() {
        Tensor a = uniform(10, 0.5, 2.0, 2, 3);
        Tensor bRow = uniform(11, 0.6, 1.9, 3);
        Tensor bCol = uniform(12, 0.7, 2.1, 2, 1);
        Tensor bScalar = uniform(13, 0.8, 1.7);
        for (BinaryOp op : List.of(BinaryOp.ADD, BinaryOp.SUBTRACT, BinaryOp.MULTIPLY, BinaryOp.DIVIDE, BinaryOp.POW,
                BinaryOp.ATAN2, BinaryOp.MIN, BinaryOp.MAX, BinaryOp.REMAINDER)) {
            for (Tensor b : List.of(uniform(14, 0.55, 2.2, 2, 3), bRow, bCol, bScalar)) {
                check(op + " " + a.shape() + " " + b.shape(), xs -> xs.get(0).apply(op, xs.get(1)), a, b);
                check(op + " " + b.shape() + " " + a.shape(), xs -> xs.get(1).apply(op, xs.get(0)), a, b);
            }
            check(op + " outer [2,1] [1,3]", xs -> xs.get(0).apply(op, xs.get(1)), bCol, bRow.reshape(1, 3));
        }
    }

    @Test
    void selectAndClip() {
        Tensor p = uniform(20, -1, 1, 2, 3);
        check("select", xs -> p.greater(0).select(xs.get(0), xs.get(1)), uniform(21, -1, 1, 2, 3), uniform(22, -1, 1, 3));
        check("select scalar branch", xs -> p.greater(0).select(xs.get(0), xs.get(1)), uniform(23, -1, 1, 2, 3), uniform(24, -1, 1));
        check("clip", xs -> xs.get(0).clip(-0.5, 0.5), uniform(25, -1, 1, 2, 3));
        check("relu", xs -> xs.get(0).maximum(0.0), uniform(26, -1, 1, 2, 3));
    }

    @Test
    void reductions() {
        Tensor x = uniform(30, 0.5, 1.5, 2, 3, 4);
        check("sum all", xs -> xs.get(0).sum(), x);
        check("sum axes", xs -> xs.get(0).sum(new int[] {0, 2}), x);
        check("sum keep", xs -> xs.get(0).sum(new int[] {1}, true), x);
        check("product", xs -> xs.get(0).product(new int[] {1}), x);
        check("max", xs -> xs.get(0).max(new int[] {2}), x);
        check("min", xs -> xs.get(0).min(new int[] {0, 1}), x);
        check("mean", xs -> xs.get(0).mean(new int[] {1}), x);
        check("logSumExp", xs -> xs.get(0).logSumExp(new int[] {2}), x);
        check("softmax", xs -> {
            Tensor e = xs.get(0).subtract(xs.get(0).max(new int[] {2}, true)).exp();
            return e.divide(e.sum(new int[] {2}, true));
        }, x);
    }

    @Test
    void cumulative() {
        Tensor x = uniform(40, 0.5, 1.5, 3, 4);
        check("cumsum", xs -> xs.get(0).cumulativeSum(1), x);
        check("cumsum reverse", xs -> xs.get(0).cumulativeSum(0, true), x);
        check("cumprod", xs -> xs.get(0).cumulativeProduct(1), x);
        check("cumprod reverse", xs -> xs.get(0).cumulativeProduct(0, true), x);
        Tensor y = uniform(41, -1, 1, 3, 7);
        check("cummax", xs -> xs.get(0).cumulativeMax(1), y);
        check("cummax reverse", xs -> xs.get(0).cumulativeMax(1, true), y);
        check("cummin", xs -> xs.get(0).cumulativeMin(1), y);
        check("cummin reverse axis 0", xs -> xs.get(0).cumulativeMin(0, true), y);
    }

    @Test
    void movement() {
        Tensor x = uniform(50, -1, 1, 2, 3, 4);
        check("transpose", xs -> xs.get(0).transpose(2, 0, 1), x);
        check("broadcast", xs -> xs.get(0).broadcast(Shape.of(5, 2, 3, 4)), x);
        check("broadcast axes", xs -> xs.get(0).broadcast(Shape.of(3, 4, 2), new int[] {0, 2}), uniform(51, -1, 1, 3, 1));
        check("reshape", xs -> xs.get(0).reshape(6, 4), x);
        check("slice", xs -> xs.get(0).slice(new int[] {0, 1, 0}, new int[] {2, 2, 4}, new int[] {1, 1, 2}), x);
        check("putSlice", xs -> xs.get(0).putSlice(new int[] {0, 1, 1}, xs.get(1)), x, uniform(52, -1, 1, 1, 2, 2));
        check("pad", xs -> xs.get(0).pad(xs.get(1), new int[][] {{1, -1, 1}, {0, 2, 0}, {-1, 1, 2}}), x, uniform(53, -1, 1));
        check("reverse", xs -> xs.get(0).reverse(0, 2), x);
        check("concatenate", xs -> Tensor.concatenate(1, xs.get(0), xs.get(1), xs.get(0)), x, uniform(54, -1, 1, 2, 2, 4));
        check("stack", xs -> Tensor.stack(0, xs.get(0), xs.get(1)), uniform(55, -1, 1, 3), uniform(56, -1, 1, 3));
        check("squeeze/newAxis", xs -> xs.get(0).newAxis(1).squeeze(), x);
        check("tile", xs -> xs.get(0).tile(2, 1), uniform(57, -1, 1, 2, 3));
    }

    @Test
    void indexing() {
        Tensor x = uniform(60, -1, 1, 4, 3);
        Tensor idx = Tensor.of(new int[][] {{1}, {3}, {1}});
        check("gather (repeated rows)", xs -> xs.get(0).gather(idx), x);
        check("gather 2-d", xs -> xs.get(0).gather(Tensor.of(new int[][] {{0, 2}, {3, 1}, {0, 2}})), x);
        check("take", xs -> xs.get(0).take(Tensor.of(2, 0, 2), 1), x);
        check("takeAlongAxis", xs -> xs.get(0).takeAlongAxis(Tensor.of(new int[][] {{1}, {0}, {2}, {2}}), 1), x);
        check("indexedAdd", xs -> xs.get(0).indexedAdd(idx, xs.get(1)), x, uniform(61, -1, 1, 3, 3));
        check("indexedPut", xs -> xs.get(0).indexedPut(Tensor.of(new int[][] {{0}, {2}}), xs.get(1)), x, uniform(62, -1, 1, 2, 3));
        check("sort", xs -> xs.get(0).sort(1), x);
        check("sort descending", xs -> xs.get(0).sort(0, true), x);
    }

    @Test
    void dots() {
        Tensor a = uniform(70, -1, 1, 3, 4);
        Tensor b = uniform(71, -1, 1, 4, 2);
        check("matmul", xs -> xs.get(0).dot(xs.get(1)), a, b);
        check("vector dot", xs -> xs.get(0).dot(xs.get(1)), uniform(72, -1, 1, 4), uniform(73, -1, 1, 4));
        check("matrix-vector", xs -> xs.get(0).dot(xs.get(1)), a, uniform(74, -1, 1, 4));
        Tensor p = uniform(75, -1, 1, 2, 4, 3);   // [batch, k, m]
        Tensor q = uniform(76, -1, 1, 2, 5, 4);   // [batch, n, k]
        check("batched, permuted axes", xs -> xs.get(0).dot(new int[] {1}, new int[] {0}, xs.get(1), new int[] {2}, new int[] {0}), p, q);
        check("two contracted axes", xs -> xs.get(0).dot(new int[] {0, 2}, new int[] {}, xs.get(1), new int[] {1, 0}, new int[] {}),
                uniform(77, -1, 1, 2, 3, 4), uniform(78, -1, 1, 4, 2, 5));
    }

    @Test
    void windows() {
        Tensor x = uniform(80, -1, 1, 2, 5, 6);
        dev.jburn.WindowOptions valid = dev.jburn.WindowOptions.defaults();
        dev.jburn.WindowOptions strided = valid.withStrides(1, 2, 3).withPadding(dev.jburn.Padding.explicit(new int[] {0, 0}, new int[] {1, 2}, new int[] {2, 1}));
        check("windowSum", xs -> xs.get(0).windowSum(new int[] {1, 2, 3}), x);
        check("windowSum strided, padded, dilated", xs -> xs.get(0).windowSum(new int[] {2, 2, 2}, strided.withDilations(1, 2, 2)), x);
        check("windowSum SAME", xs -> xs.get(0).windowSum(new int[] {1, 3, 3}, valid.withPadding(dev.jburn.Padding.SAME).withStrides(1, 2, 2)), x);
        // max/min: every window holds a real element (a window of padding only is -inf, which has no finite difference)
        dev.jburn.WindowOptions light = valid.withStrides(1, 2, 3).withPadding(dev.jburn.Padding.explicit(new int[] {0, 0}, new int[] {1, 0}, new int[] {0, 1}));
        check("windowMax", xs -> xs.get(0).windowMax(new int[] {1, 2, 2}, light), x);
        check("windowMin", xs -> xs.get(0).windowMin(new int[] {2, 3, 2}, light), x);
        check("mean pool", xs -> xs.get(0).windowSum(new int[] {1, 2, 2}, valid.withStrides(1, 2, 2)).divide(4.0), uniform(81, -1, 1, 1, 4, 4));
    }

    @Test
    void convolutions() {
        Tensor x = uniform(90, -1, 1, 2, 3, 6, 5);
        Tensor k = uniform(91, -1, 1, 4, 3, 3, 2);
        dev.jburn.ConvOptions plain = dev.jburn.ConvOptions.defaults();
        check("conv valid", xs -> xs.get(0).conv(xs.get(1)), x, k);
        check("conv strided, padded", xs -> xs.get(0).conv(xs.get(1), plain.withStrides(2, 2).withPadding(dev.jburn.Padding.explicit(new int[] {1, 2}, new int[] {0, 1}))), x, k);
        check("conv same, kernel dilation", xs -> xs.get(0).conv(xs.get(1), plain.withPadding(dev.jburn.Padding.SAME).withKernelDilation(2, 1)), x, k);
        check("conv input dilation, stride 3", xs -> xs.get(0).conv(xs.get(1), plain.withInputDilation(2, 1).withStrides(3, 1)), x, k);
        check("conv 1-d", xs -> xs.get(0).conv(xs.get(1), plain.withStrides(2)), uniform(92, -1, 1, 1, 2, 7), uniform(93, -1, 1, 3, 2, 3));
        check("grouped conv", xs -> xs.get(0).conv(xs.get(1), plain.withFeatureGroupSize(2).withStrides(2, 1)),
                uniform(95, -1, 1, 2, 4, 5, 4), uniform(96, -1, 1, 6, 2, 2, 3));
        check("depthwise conv", xs -> xs.get(0).conv(xs.get(1), plain.withFeatureGroupSize(3).withPadding(dev.jburn.Padding.SAME)),
                uniform(97, -1, 1, 1, 3, 4, 4), uniform(98, -1, 1, 3, 1, 3, 3));
        check("convTranspose", xs -> xs.get(0).convTranspose(xs.get(1), plain.withStrides(2, 1)), x, uniform(94, -1, 1, 3, 3, 2, 2));
    }

    @Test
    void linearAlgebra() {
        Tensor m = uniform(100, -1, 1, 2, 3, 3);
        Tensor spd = m.dot(new int[] {2}, new int[] {0}, m, new int[] {2}, new int[] {0}).add(Tensor.eye(3, DType.F64).multiply(3.0));
        check("cholesky (batched)", xs -> dev.jburn.LinAlg.cholesky(xs.get(0)), spd);
        Tensor tri = uniform(101, -1, 1, 2, 3, 3).add(Tensor.eye(3, DType.F64).multiply(4.0));
        for (boolean lower : new boolean[] {true, false}) {
            for (boolean left : new boolean[] {true, false}) {
                for (boolean transpose : new boolean[] {true, false}) {
                    String what = "triangularSolve lower=" + lower + " left=" + left + " transposeA=" + transpose;
                    check(what, xs -> dev.jburn.LinAlg.triangularSolve(xs.get(0), xs.get(1), lower, left, transpose), tri, uniform(102, -1, 1, 2, 3, 3));
                }
            }
            check("triangularSolve vector lower=" + lower, xs -> dev.jburn.LinAlg.triangularSolve(xs.get(0), xs.get(1), lower, true, false),
                    tri, uniform(103, -1, 1, 2, 3));
        }
        check("log-determinant via cholesky", xs -> {
            Tensor l = dev.jburn.LinAlg.cholesky(xs.get(0));
            return l.multiply(Tensor.eye(3, DType.F64)).sum(new int[] {2}).log().sum(new int[] {1}).multiply(2.0);
        }, spd);
    }

    @Test
    void castsBetweenFloats() {
        Tensor x = Tensor.of(1.5f, -2f, 3f);
        Tensor g = dev.jburn.autodiff.Autodiff.grad(t -> t.asType(DType.F64).multiply(2.0).sum()).apply(x);
        AutodiffTestSupport.assertClose("f32 -> f64 cast", Tensor.of(2f, 2f, 2f), g, 0);
        Tensor z = dev.jburn.autodiff.Autodiff.grad(t -> t.asType(DType.S32).asType(DType.F64).sum()).apply(uniform(79, -3, 3, 3));
        AutodiffTestSupport.assertClose("through an integer cast", Tensor.zeros(Shape.of(3), DType.F64), z, 0);
    }
}
