package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The base of a device engine: every primitive runs on the cpu engine (operands copied to the
 * host and the result copied back), counted in {@link #fallbacks()}. A device engine overrides the
 * primitives it runs natively and calls {@code super} for the op × dtype cases it lacks, so every
 * op works on every engine and the user can see which ones did not run on the device.
 *
 * <pre>{@code
 * final class MyGpuBackend extends HostFallbackBackend {
 *     public Buffer unary(UnaryOp op, Operand x, DType out) {
 *         if (!kernels.supports(op, x.dtype())) return super.unary(op, x, out);
 *         return launchUnary(op, x, out);
 *     }
 *     ...
 * }
 * }</pre>
 */
public abstract class HostFallbackBackend implements Backend {
    private final FallbackLog log = new FallbackLog();
    private volatile Backend host;

    /** The cpu engine's backend, found on first use. */
    protected final Backend host() {
        Backend h = host;
        if (h == null) {
            synchronized (this) {
                if (host == null) host = Engine.select("cpu").backend();
                h = host;
            }
        }
        return h;
    }

    /** What ran on the cpu engine instead of this device. */
    public final FallbackLog fallbacks() { return log; }

    @Override
    public Map<String, Long> fallbackCounts() { return log.snapshot(); }

    /** Runs {@code kernel} on the host engine with {@code operands} copied there; counts it as {@code op} on {@code dtype}. */
    protected final Buffer onHost(String op, DType dtype, List<Operand> operands, Function<List<Operand>, Buffer> kernel) {
        log.record(op, dtype);
        try (HostCall c = new HostCall(this, host())) {
            return c.out(kernel.apply(c.in(operands)));
        }
    }

    /** {@link #onHost} for primitives with several results. */
    protected final List<Buffer> onHostList(String op, DType dtype, List<Operand> operands, Function<List<Operand>, List<Buffer>> kernel) {
        log.record(op, dtype);
        try (HostCall c = new HostCall(this, host())) {
            return c.out(kernel.apply(c.in(operands)));
        }
    }

    @Override
    public Buffer unary(UnaryOp op, Operand x, DType out) {
        return onHost(op.opName(), x.dtype(), List.of(x), h -> host().unary(op, h.get(0), out));
    }

    @Override
    public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
        return onHost(op.opName(), a.dtype(), List.of(a, b), h -> host().binary(op, h.get(0), h.get(1), outShape, out));
    }

    @Override
    public Buffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape) {
        return onHost("select", onTrue.dtype(), List.of(pred, onTrue, onFalse), h -> host().select(h.get(0), h.get(1), h.get(2), outShape));
    }

    @Override
    public Buffer cast(Operand x, DType to) {
        return onHost("cast", x.dtype(), List.of(x), h -> host().cast(h.get(0), to));
    }

    @Override
    public Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out) {
        return onHost(op.opName(), x.dtype(), List.of(x), h -> host().reduce(op, h.get(0), axes, out));
    }

    @Override
    public Buffer argReduce(ReduceOp op, Operand x, int axis, boolean tieBreakHigh, DType out) {
        return onHost(op.opName(), x.dtype(), List.of(x), h -> host().argReduce(op, h.get(0), axis, tieBreakHigh, out));
    }

    @Override
    public Buffer cumulative(CumulativeOp op, Operand x, int axis, boolean reverse) {
        return onHost(op.opName(), x.dtype(), List.of(x), h -> host().cumulative(op, h.get(0), axis, reverse));
    }

    @Override
    public Buffer transpose(Operand x, int[] perm) {
        return onHost("transpose", x.dtype(), List.of(x), h -> host().transpose(h.get(0), perm));
    }

    @Override
    public Buffer broadcast(Operand x, Shape outShape, int[] axes) {
        return onHost("broadcast", x.dtype(), List.of(x), h -> host().broadcast(h.get(0), outShape, axes));
    }

    @Override
    public Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides) {
        return onHost("slice", x.dtype(), List.of(x), h -> host().slice(h.get(0), starts, lengths, strides));
    }

    @Override
    public Buffer putSlice(Operand x, int[] starts, Operand update) {
        return onHost("putSlice", x.dtype(), List.of(x, update), h -> host().putSlice(h.get(0), starts, h.get(1)));
    }

    @Override
    public Buffer pad(Operand x, Operand padValue, int[] lo, int[] hi, int[] interior) {
        return onHost("pad", x.dtype(), List.of(x, padValue), h -> host().pad(h.get(0), h.get(1), lo, hi, interior));
    }

    @Override
    public Buffer reverse(Operand x, int[] axes) {
        return onHost("reverse", x.dtype(), List.of(x), h -> host().reverse(h.get(0), axes));
    }

    @Override
    public Buffer concatenate(List<Operand> parts, int axis) {
        return onHost("concatenate", parts.getFirst().dtype(), parts, h -> host().concatenate(h, axis));
    }

    @Override
    public Buffer gather(Operand x, Operand indices, int[] axes) {
        return onHost("gather", x.dtype(), List.of(x, indices), h -> host().gather(h.get(0), h.get(1), axes));
    }

    @Override
    public Buffer indexedUpdate(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate) {
        return onHost(accumulate ? "indexedAdd" : "indexedPut", target.dtype(), List.of(target, indices, updates),
                h -> host().indexedUpdate(h.get(0), h.get(1), h.get(2), axes, accumulate));
    }

    @Override
    public Buffer sort(Operand x, int axis, boolean descending) {
        return onHost("sort", x.dtype(), List.of(x), h -> host().sort(h.get(0), axis, descending));
    }

    @Override
    public Buffer argsort(Operand x, int axis, boolean descending, DType indexType) {
        return onHost("argsort", x.dtype(), List.of(x), h -> host().argsort(h.get(0), axis, descending, indexType));
    }

    @Override
    public Buffer dot(Operand a, int[] contractA, int[] batchA, Operand b, int[] contractB, int[] batchB, DType out) {
        return onHost("dot", a.dtype(), List.of(a, b), h -> host().dot(h.get(0), contractA, batchA, h.get(1), contractB, batchB, out));
    }

    @Override
    public Buffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) {
        return onHost("conv", input.dtype(), List.of(input, kernel), h -> host().conv(h.get(0), h.get(1), spec, out));
    }

    @Override
    public Buffer windowReduce(WindowOp op, Operand x, WindowSpec spec) {
        return onHost(op.opName(), x.dtype(), List.of(x), h -> host().windowReduce(op, h.get(0), spec));
    }

    @Override
    public Buffer windowScatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        return onHost(op.opName(), x.dtype(), List.of(x, source, init), h -> host().windowScatter(op, h.get(0), h.get(1), h.get(2), spec));
    }

    @Override
    public Buffer cholesky(Operand a) {
        return onHost("cholesky", a.dtype(), List.of(a), h -> host().cholesky(h.get(0)));
    }

    @Override
    public Buffer triangularSolve(Operand a, Operand b, boolean lower, boolean leftSide, boolean transposeA) {
        return onHost("triangularSolve", a.dtype(), List.of(a, b), h -> host().triangularSolve(h.get(0), h.get(1), lower, leftSide, transposeA));
    }

    @Override
    public List<Buffer> lu(Operand a) {
        return onHostList("lu", a.dtype(), List.of(a), h -> host().lu(h.get(0)));
    }

    @Override
    public List<Buffer> qr(Operand a, boolean complete) {
        return onHostList("qr", a.dtype(), List.of(a), h -> host().qr(h.get(0), complete));
    }

    @Override
    public List<Buffer> eigh(Operand a) {
        return onHostList("eigh", a.dtype(), List.of(a), h -> host().eigh(h.get(0)));
    }

    @Override
    public List<Buffer> svd(Operand a, boolean fullMatrices) {
        return onHostList("svd", a.dtype(), List.of(a), h -> host().svd(h.get(0), fullMatrices));
    }

    @Override
    public Buffer iota(Shape shape, DType dtype, int axis) {
        return onHost("iota", dtype, List.of(), h -> host().iota(shape, dtype, axis));
    }
}
