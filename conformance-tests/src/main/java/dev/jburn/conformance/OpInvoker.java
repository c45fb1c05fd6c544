package dev.jburn.conformance;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.LinAlg;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.TopK;
import dev.jburn.WindowOptions;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ContractionOp;
import dev.jburn.op.CreationOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ElementwiseOp;
import dev.jburn.op.IndexOp;
import dev.jburn.op.Op;
import dev.jburn.op.RandomOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.ShapeOp;
import dev.jburn.op.SortOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.op.WindowOp;
import dev.jburn.op.ConvOp;
import dev.jburn.op.LinalgOp;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.util.List;

/**
 * Runs any catalog op once, on a matrix and operands derived from it, with fixed small
 * options: one exhaustive {@code switch} per op family (no {@code default}), so a new op does
 * not compile until it has a case here. The catalog meta-test uses it to learn which ops an
 * engine runs; properties may use it to run an op family generically.
 *
 * <p>Ops with a public {@code Tensor} method are called through it. Primitives whose
 * {@code Tensor} method does not exist yet (the element-wise family) are called on the backend
 * SPI directly (the reference engine answers "is not built yet" for kernels not written yet);
 * composites without a {@code Tensor} method throw a {@link JBurnException} saying
 * {@value #NOT_BUILT}. Replace each such case with the {@code Tensor} call once the method exists.
 * Creation ops make their tensor on the default engine and move it to {@code x}'s engine.
 *
 * <pre>{@code
 * Tensor x = OpInvoker.sampleInput(engine);
 * List<Tensor> out = OpInvoker.invoke(ShapeOp.RESHAPE, x);
 * }</pre>
 */
public final class OpInvoker {
    private OpInvoker() {}

    /** The words that mark an op as not implemented yet, in the reference engine's and this class's errors. */
    public static final String NOT_BUILT = "not built yet";

    /** Whether {@code e} says its op is not implemented yet (as opposed to a real failure). */
    public static boolean isNotBuilt(Throwable e) {
        return e instanceof JBurnException j && j.reason().contains(NOT_BUILT);
    }

    /** A valid input for {@link #invoke}: {@code f32[2,3] [[1, 2, 3], [4, 5, 6]]} on {@code engine}. */
    public static Tensor sampleInput(Engine engine) {
        return Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}}).to(engine);
    }

    /**
     * Runs {@code op} once on {@code x} and operands derived from it (a second operand of 2s,
     * index tensors, axis 0 or 1). Element-wise, cast and creation ops take {@code x} of any
     * dtype and shape, and so do random ops (drawn from a fixed key in {@code x}'s shape); the
     * other families need a numeric matrix of at least 2 x 2 (such as
     * {@link #sampleInput}). Integer-only ops cast {@code x} to S32 first.
     *
     * @return the op's results (one tensor, or more for multi-output ops), on {@code x}'s engine
     */
    public static List<Tensor> invoke(Op op, Tensor x) {
        return switch (op) {
            case UnaryOp u -> List.of(unary(u, x));
            case BinaryOp b -> List.of(binary(b, x));
            case ElementwiseOp e -> List.of(elementwise(e, x));
            case ReduceOp r -> List.of(reduce(r, matrix(op, x)));
            case CumulativeOp c -> List.of(cumulative(c, matrix(op, x)));
            case ShapeOp s -> List.of(shape(s, matrix(op, x)));
            case IndexOp i -> List.of(index(i, matrix(op, x)));
            case SortOp s -> sort(s, matrix(op, x));
            case ContractionOp c -> List.of(contraction(c, matrix(op, x)));
            case CreationOp c -> List.of(creation(c, x));
            case RandomOp r -> random(r, x);
            case WindowOp w -> List.of(window(w, matrix(op, x)));
            case ConvOp c -> List.of(conv(c, matrix(op, x)));
            case LinalgOp l -> linalg(l, matrix(op, x));
        };
    }

    /** Window ops on {@code x} as a {@code [1, 1, r, c]} image, 2 x 2 windows, stride 1, no padding. */
    private static Tensor window(WindowOp op, Tensor x) {
        Tensor image = x.reshape(1, 1, x.shape().dim(0), x.shape().dim(1));
        int[] dims = {1, 1, 2, 2};
        WindowOptions o = WindowOptions.defaults();
        Tensor source = Tensor.full(Shape.of(1, 1, x.shape().dim(0) - 1, x.shape().dim(1) - 1), x.dtype(), 1).to(x.engine());
        return switch (op) {
            case WINDOW_SUM -> image.windowSum(dims, o);
            case WINDOW_PRODUCT -> image.windowProduct(dims, o);
            case WINDOW_MAX -> image.windowMax(dims, o);
            case WINDOW_MIN -> image.windowMin(dims, o);
            case WINDOW_SCATTER_MAX -> image.windowScatterMax(source, 0L, dims, o);
            case WINDOW_SCATTER_MIN -> image.windowScatterMin(source, 0L, dims, o);
        };
    }

    /** Convolutions of {@code x} as a {@code [1, 1, r, c]} image with a 2 x 2 kernel of 2s. */
    private static Tensor conv(ConvOp op, Tensor x) {
        Tensor image = x.reshape(1, 1, x.shape().dim(0), x.shape().dim(1));
        Tensor kernel = twos(Shape.of(1, 1, 2, 2), x.dtype(), x.engine());
        return switch (op) {
            case CONV -> image.conv(kernel, ConvOptions.defaults());
            case CONV_TRANSPOSE -> image.convTranspose(kernel, ConvOptions.defaults());
        };
    }

    /**
     * Linear algebra on {@code a = f·fᵀ + r·I} ({@code f} is {@code x} in its floating type, {@code r} its
     * row count): symmetric positive definite, so every factorization and solver accepts it.
     */
    private static List<Tensor> linalg(LinalgOp op, Tensor x) {
        Tensor f = x.asType(x.dtype().toFloating());
        int r = x.shape().dim(0);
        Tensor a = f.dot(f.transpose()).add(Tensor.eye(r, f.dtype()).to(x.engine()).multiply((long) r));
        Tensor b = twos(Shape.of(r), f.dtype(), x.engine());
        return switch (op) {
            case CHOLESKY -> List.of(LinAlg.cholesky(a));
            case TRIANGULAR_SOLVE -> List.of(LinAlg.triangularSolve(LinAlg.cholesky(a), b));
            case LU -> {
                LinAlg.LU lu = LinAlg.lu(a);
                yield List.of(lu.p(), lu.l(), lu.u());
            }
            case QR -> {
                LinAlg.QR qr = LinAlg.qr(a);
                yield List.of(qr.q(), qr.r());
            }
            case EIGH -> {
                LinAlg.Eigh e = LinAlg.eigh(a);
                yield List.of(e.eigenvalues(), e.eigenvectors());
            }
            case SVD -> {
                LinAlg.SVD s = LinAlg.svd(a);
                yield List.of(s.u(), s.s(), s.vt());
            }
            case SOLVE -> List.of(LinAlg.solve(a, b));
            case INVERT -> List.of(LinAlg.invert(a));
            case DETERMINANT -> List.of(LinAlg.determinant(a));
            case NORM -> List.of(LinAlg.norm(x));
        };
    }

    private static Tensor matrix(Op op, Tensor x) {
        if (x.rank() != 2 || x.shape().dim(0) < 2 || x.shape().dim(1) < 2 || x.dtype().isPred()) {
            throw new JBurnException("conformance", "OpInvoker runs " + op.opName() + " on a numeric matrix of at least 2 x 2, got "
                    + x.dtype().shortName() + x.shape());
        }
        return x;
    }

    private static Tensor unary(UnaryOp op, Tensor x) {
        return switch (op) {
            case ABS, NEGATE, SIGN, EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN,
                 SINH, COSH, TANH, ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV, FLOOR, CEIL, ROUND,
                 IS_NAN, IS_INFINITY, LOGICAL_NOT -> ElementwiseMethods.unary(op, x);
            case BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> ElementwiseMethods.unary(op, x.asType(DType.S32));
        };
    }

    private static Tensor binary(BinaryOp op, Tensor x) {
        return switch (op) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, REMAINDER, POW, ATAN2, MIN, MAX,
                 EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL,
                 LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR -> ElementwiseMethods.binary(op, x, twos(x.shape(), x.dtype(), x.engine()));
            case QUOTIENT, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT ->
                    ElementwiseMethods.binary(op, x.asType(DType.S32), twos(x.shape(), DType.S32, x.engine()));
        };
    }

    private static Tensor elementwise(ElementwiseOp op, Tensor x) {
        return switch (op) {
            case SELECT -> x.asType(DType.PRED).select(x, twos(x.shape(), x.dtype(), x.engine()));
            case AS_TYPE -> x.asType(DType.S32);
            case CLIP -> x.clip(1L, 4L);
            case BITCAST -> x.bitcast(sameWidthPartner(x.dtype()));
        };
    }

    /** Another type of {@code t}'s width that {@code bitcast} accepts: signed for unsigned and the reverse, signed for floats, U8 for PRED. */
    private static DType sameWidthPartner(DType t) {
        if (t.isPred()) return DType.U8;
        return t.isSigned() ? DType.unsigned(t.bits()) : DType.signed(t.bits());
    }

    private static Tensor reduce(ReduceOp op, Tensor x) {
        int[] rows = {1};
        return switch (op) {
            case SUM -> x.sum(rows);
            case PRODUCT -> x.product(rows);
            case REDUCE_MAX -> x.max(rows);
            case REDUCE_MIN -> x.min(rows);
            case ALL -> x.all(rows);
            case ANY -> x.any(rows);
            case ARGMAX -> x.argmax(1);
            case ARGMIN -> x.argmin(1);
            case MEAN -> x.mean(rows);
            case LOG_SUM_EXP -> x.logSumExp(rows);
        };
    }

    private static Tensor cumulative(CumulativeOp op, Tensor x) {
        return switch (op) {
            case CUMULATIVE_SUM -> x.cumulativeSum(0);
            case CUMULATIVE_PRODUCT -> x.cumulativeProduct(0);
            case CUMULATIVE_MAX -> x.cumulativeMax(0);
            case CUMULATIVE_MIN -> x.cumulativeMin(0);
        };
    }

    private static Tensor shape(ShapeOp op, Tensor x) {
        int r = x.shape().dim(0);
        int c = x.shape().dim(1);
        return switch (op) {
            case RESHAPE -> x.reshape(-1);
            case BROADCAST -> x.broadcast(Shape.of(2, r, c), new int[] {1, 2});
            case TRANSPOSE -> x.transpose(1, 0);
            case SLICE -> x.slice(new int[] {0, 0}, new int[] {1, 2});
            case PUT_SLICE -> x.putSlice(new int[] {0, 0}, twos(Shape.of(1, 1), x.dtype(), x.engine()));
            case PAD -> x.pad(2L, new int[][] {{1, 0, 0}, {0, 1, 0}});
            case CONCATENATE -> Tensor.concatenate(0, x, x);
            case REVERSE -> x.reverse(0);
            case SQUEEZE -> x.newAxis(0).squeeze(0);
            case NEW_AXIS -> x.newAxis(-1);
            case STACK -> Tensor.stack(0, x, x);
            case TILE -> x.tile(2, 1);
        };
    }

    private static Tensor index(IndexOp op, Tensor x) {
        int c = x.shape().dim(1);
        Engine e = x.engine();
        return switch (op) {
            case TAKE -> x.take(indices(e, Shape.of(2), 1, 0), 1);
            case TAKE_ALONG_AXIS -> x.takeAlongAxis(indices(e, Shape.of(x.shape().dim(0), 1), new long[x.shape().dim(0)]), 1);
            case GATHER -> x.gather(indices(e, Shape.of(2, 1), 0, 1));
            case INDEXED_ADD -> x.indexedAdd(indices(e, Shape.of(1, 1), 0), twos(Shape.of(1, c), x.dtype(), e));
            case INDEXED_PUT -> x.indexedPut(indices(e, Shape.of(1, 1), 0), twos(Shape.of(1, c), x.dtype(), e));
        };
    }

    private static List<Tensor> sort(SortOp op, Tensor x) {
        return switch (op) {
            case SORT -> List.of(x.sort(1));
            case ARGSORT -> List.of(x.argsort(1));
            case TOP_K -> {
                TopK top = x.topK(1);
                yield List.of(top.values(), top.indices());
            }
        };
    }

    private static Tensor contraction(ContractionOp op, Tensor x) {
        return switch (op) {
            case DOT -> x.dot(new int[] {1}, new int[0], x, new int[] {1}, new int[0]);
        };
    }

    private static Tensor creation(CreationOp op, Tensor x) {
        return switch (op) {
            case FULL -> Tensor.full(x.shape(), x.dtype(), 3).to(x.engine());
            case IOTA -> Tensor.iota(x.shape(), DType.S32).to(x.engine());
            case EYE -> Tensor.eye(x.shape().dim(0), x.dtype()).to(x.engine());
            case ARANGE -> Tensor.arange(0, x.shape().dim(0), 1, x.dtype()).to(x.engine());
            case LINSPACE -> Tensor.linspace(0, 1, x.shape().dim(0), x.dtype()).to(x.engine());
        };
    }

    private static List<Tensor> random(RandomOp op, Tensor x) {
        Tensor key = Prng.key(42).to(x.engine());
        return switch (op) {
            case THREEFRY_BITS -> List.of(Prng.bits(key, x.shape(), DType.U32));
            case SPLIT -> List.of(Prng.split(key));
            case FOLD_IN -> List.of(Prng.foldIn(key, 7));
            case UNIFORM -> sample(Prng.uniform(key, x.shape(), DType.F32, 0, 1));
            case NORMAL -> sample(Prng.normal(key, x.shape(), DType.F32, 0, 1));
            case RANDINT -> sample(Prng.randint(key, 0, 10, x.shape(), DType.S32));
        };
    }

    private static List<Tensor> sample(Prng.Sample s) { return List.of(s.values(), s.nextKey()); }

    // ---- helpers ------------------------------------------------------------------------------

    @FunctionalInterface
    private interface Kernel {
        Buffer run(Backend backend, List<Operand> operands);
    }

    private static Tensor spi(List<Tensor> inputs, DType out, Shape outShape, Kernel k) {
        Engine e = inputs.get(0).engine();
        return BackendCalls.run(e, inputs, out, outShape, ops -> k.run(e.backend(), ops));
    }

    private static Tensor twos(Shape s, DType t, Engine e) { return Tensor.full(s, t, 2).to(e); }

    private static Tensor indices(Engine e, Shape s, long... values) {
        return TensorCase.ofLongs(DType.S32, s, values).on(e);
    }

    /** Throws the "not built yet" error for {@code op}; typed to fit any switch arm. */
    private static <T> T notBuilt(Op op) {
        throw new JBurnException(op.opName(), "is " + NOT_BUILT + ": no Tensor method or backend kernel runs it in this build");
    }
}
