package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
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
 * {@code Tensor} method does not exist yet are called on the backend SPI directly (the
 * reference engine answers "is not built yet" for kernels not written yet); composites without
 * a {@code Tensor} method throw a {@link JBurnException} saying {@value #NOT_BUILT}. Replace
 * each such case with the {@code Tensor} call once the method exists.
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
     * dtype and shape; the other families need a numeric matrix of at least 2 x 2 (such as
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

    /** Windows of {@code [1, 2]} over the matrix; scatters add 2s at each window's max (min). */
    private static Tensor window(WindowOp op, Tensor x) {
        int[] w = {1, 2};
        WindowOptions o = WindowOptions.defaults();
        return switch (op) {
            case WINDOW_SUM -> x.windowSum(w, o);
            case WINDOW_PRODUCT -> x.windowProduct(w, o);
            case WINDOW_MAX -> x.windowMax(w, o);
            case WINDOW_MIN -> x.windowMin(w, o);
            case WINDOW_SCATTER_MAX -> x.windowScatterMax(twos(x.windowMax(w, o).shape(), x.dtype(), x.engine()), 0, w, o);
            case WINDOW_SCATTER_MIN -> x.windowScatterMin(twos(x.windowMin(w, o).shape(), x.dtype(), x.engine()), 0, w, o);
        };
    }

    /** The matrix {@code [r, c]} as a 1-D input {@code [1, r, c]} (r channels), against a kernel of 2s. */
    private static Tensor conv(ConvOp op, Tensor x) {
        int r = x.shape().dim(0);
        Tensor in = x.reshape(1, r, x.shape().dim(1));
        return switch (op) {
            case CONV -> in.conv(twos(Shape.of(1, r, 2), x.dtype(), x.engine()));
            case CONV_TRANSPOSE -> in.convTranspose(twos(Shape.of(r, 1, 2), x.dtype(), x.engine()));
        };
    }

    private static List<Tensor> linalg(LinalgOp op, Tensor x) {
        return switch (op) {
            case CHOLESKY, TRIANGULAR_SOLVE, LU, QR, EIGH, SVD, SOLVE, INVERT, DETERMINANT, NORM -> notBuilt(op);
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
                 IS_NAN, IS_INFINITY, LOGICAL_NOT -> spiUnary(op, x);
            case BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> spiUnary(op, x.asType(DType.S32));
        };
    }

    private static Tensor spiUnary(UnaryOp op, Tensor x) {
        DType out = op.resultType(x.dtype());
        Tensor in = x.asType(op.floatMath() ? x.dtype().toFloating() : x.dtype());
        return spi(List.of(in), out, x.shape(), (b, o) -> b.unary(op, o.get(0), out));
    }

    private static Tensor binary(BinaryOp op, Tensor x) {
        return switch (op) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, REMAINDER, POW, ATAN2, MIN, MAX,
                 EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL,
                 LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR -> spiBinary(op, x);
            case QUOTIENT, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> spiBinary(op, x.asType(DType.S32));
        };
    }

    private static Tensor spiBinary(BinaryOp op, Tensor x) {
        DType compute = op.computeType(x.dtype());
        DType out = op.resultType(compute);
        Tensor a = x.asType(compute);
        Tensor b = twos(x.shape(), compute, x.engine());
        return spi(List.of(a, b), out, x.shape(), (be, o) -> be.binary(op, o.get(0), o.get(1), x.shape(), out));
    }

    private static Tensor elementwise(ElementwiseOp op, Tensor x) {
        return switch (op) {
            case SELECT -> spi(List.of(x.asType(DType.PRED), x, twos(x.shape(), x.dtype(), x.engine())), x.dtype(), x.shape(),
                    (b, o) -> b.select(o.get(0), o.get(1), o.get(2), x.shape()));
            case AS_TYPE -> x.asType(DType.S32);
            case CLIP, BITCAST -> notBuilt(op);
        };
    }

    private static Tensor reduce(ReduceOp op, Tensor x) {
        Shape rows = Shape.of(x.shape().dim(0));
        return switch (op) {
            case SUM, PRODUCT -> {
                DType out = op.resultType(x.dtype());
                yield spi(List.of(x.asType(out)), out, rows, (b, o) -> b.reduce(op, o.get(0), new int[] {1}, out));
            }
            case REDUCE_MAX, REDUCE_MIN, ALL, ANY -> {
                DType out = op.resultType(x.dtype());
                yield spi(List.of(x), out, rows, (b, o) -> b.reduce(op, o.get(0), new int[] {1}, out));
            }
            case ARGMAX, ARGMIN -> spi(List.of(x), DType.S32, rows, (b, o) -> b.argReduce(op, o.get(0), 1, false, DType.S32));
            case MEAN, LOG_SUM_EXP -> notBuilt(op);
        };
    }

    private static Tensor cumulative(CumulativeOp op, Tensor x) {
        return switch (op) {
            case CUMULATIVE_SUM, CUMULATIVE_PRODUCT, CUMULATIVE_MAX, CUMULATIVE_MIN ->
                    spi(List.of(x), x.dtype(), x.shape(), (b, o) -> b.cumulative(op, o.get(0), 0, false));
        };
    }

    private static Tensor shape(ShapeOp op, Tensor x) {
        int r = x.shape().dim(0);
        int c = x.shape().dim(1);
        DType t = x.dtype();
        return switch (op) {
            case RESHAPE -> x.reshape(-1);
            case BROADCAST -> BackendCalls.broadcast(x, Shape.of(2, r, c), new int[] {1, 2});
            case TRANSPOSE -> spi(List.of(x), t, Shape.of(c, r), (b, o) -> b.transpose(o.get(0), new int[] {1, 0}));
            case SLICE -> spi(List.of(x), t, Shape.of(1, 2), (b, o) -> b.slice(o.get(0), new int[] {0, 0}, new int[] {1, 2}, new int[] {1, 1}));
            case PUT_SLICE -> spi(List.of(x, twos(Shape.of(1, 1), t, x.engine())), t, x.shape(),
                    (b, o) -> b.putSlice(o.get(0), new int[] {0, 0}, o.get(1)));
            case PAD -> spi(List.of(x, twos(Shape.scalar(), t, x.engine())), t, Shape.of(r + 1, c + 1),
                    (b, o) -> b.pad(o.get(0), o.get(1), new int[] {1, 0}, new int[] {0, 1}, new int[] {0, 0}));
            case CONCATENATE -> spi(List.of(x, x), t, Shape.of(2 * r, c), (b, o) -> b.concatenate(List.of(o.get(0), o.get(1)), 0));
            case REVERSE -> spi(List.of(x), t, x.shape(), (b, o) -> b.reverse(o.get(0), new int[] {0}));
            case SQUEEZE, NEW_AXIS, STACK, TILE -> notBuilt(op);
        };
    }

    private static Tensor index(IndexOp op, Tensor x) {
        int c = x.shape().dim(1);
        Engine e = x.engine();
        return switch (op) {
            case GATHER -> spi(List.of(x, indices(e, Shape.of(2, 1), 0, 1)), x.dtype(), Shape.of(2, c),
                    (b, o) -> b.gather(o.get(0), o.get(1), new int[] {0}));
            case INDEXED_ADD, INDEXED_PUT -> spi(List.of(x, indices(e, Shape.of(1, 1), 0), twos(Shape.of(1, c), x.dtype(), e)),
                    x.dtype(), x.shape(), (b, o) -> b.indexedUpdate(o.get(0), o.get(1), o.get(2), new int[] {0}, op == IndexOp.INDEXED_ADD));
            case TAKE, TAKE_ALONG_AXIS -> notBuilt(op);
        };
    }

    private static List<Tensor> sort(SortOp op, Tensor x) {
        return switch (op) {
            case SORT -> List.of(spi(List.of(x), x.dtype(), x.shape(), (b, o) -> b.sort(o.get(0), 1, false)));
            case ARGSORT -> List.of(spi(List.of(x), DType.S32, x.shape(), (b, o) -> b.argsort(o.get(0), 1, false, DType.S32)));
            case TOP_K -> notBuilt(op);
        };
    }

    private static Tensor contraction(ContractionOp op, Tensor x) {
        int r = x.shape().dim(0);
        return switch (op) {
            case DOT -> spi(List.of(x, x), x.dtype(), Shape.of(r, r),
                    (b, o) -> b.dot(o.get(0), new int[] {1}, new int[0], o.get(1), new int[] {1}, new int[0], x.dtype()));
        };
    }

    private static Tensor creation(CreationOp op, Tensor x) {
        return switch (op) {
            case FULL -> Tensor.full(x.shape(), x.dtype(), 3).to(x.engine());
            case IOTA -> BackendCalls.iota(x.engine(), x.shape(), DType.S32, -1);
            case EYE, ARANGE, LINSPACE -> notBuilt(op);
        };
    }

    private static List<Tensor> random(RandomOp op, Tensor x) {
        return switch (op) {
            case THREEFRY_BITS, SPLIT, FOLD_IN, UNIFORM, NORMAL, RANDINT -> notBuilt(op);
        };
    }

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
