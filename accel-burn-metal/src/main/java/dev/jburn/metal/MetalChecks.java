package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;

import java.util.Arrays;
import java.util.List;

/**
 * The checks the metal engine makes before any Objective-C call: a kernel given a buffer of
 * another engine, a buffer smaller than its shape, mismatched dtypes or shapes that do not
 * broadcast would otherwise read out of bounds on the GPU, where nothing reports it. The front
 * end validates user calls already; these catch a caller of the SPI (a graph interpreter, another
 * engine's fallback) that breaks its contract, with a JBurnException naming the op and the reason.
 *
 * <pre>{@code
 * MetalChecks.operand("add", x);                  // a live metal buffer large enough for x's shape
 * MetalChecks.broadcasts("add", List.of(a, b), out);
 * }</pre>
 */
final class MetalChecks {
    private MetalChecks() {}

    /** {@code x}'s buffer, after checking it belongs to this engine, is alive and holds {@code x}'s shape. */
    static MetalBuffer operand(String op, Operand x) {
        if (x == null || x.buffer() == null || x.dtype() == null || x.shape() == null) {
            throw new JBurnException(op, "an operand with no buffer, dtype or shape");
        }
        if (!(x.buffer() instanceof MetalBuffer b)) {
            throw new JBurnException(op, "a buffer of another engine (" + x.buffer().getClass().getSimpleName() + ") passed to the metal engine");
        }
        if (!b.isAlive()) throw new JBurnException(op, "a metal buffer already freed");
        long need = x.dtype().byteSize(x.size());
        if (b.byteSize() < need) {
            throw new JBurnException(op, "the buffer holds " + b.byteSize() + " bytes, " + x.dtype().shortName() + x.shape() + " needs " + need);
        }
        return b;
    }

    /** Every operand checked by {@link #operand}. */
    static void operands(String op, List<Operand> xs) {
        for (Operand x : xs) operand(op, x);
    }

    /** Operands of one dtype (a binary op's compute type, a select's branches, a concatenation). */
    static void sameType(String op, Operand a, Operand b) {
        if (a.dtype() != b.dtype()) {
            throw new JBurnException(op, "operands of one dtype expected, got " + a.dtype().shortName() + " and " + b.dtype().shortName());
        }
    }

    /** {@code out} is what {@code op} gives on {@code in} ({@link UnaryOp#resultType}). */
    static void unaryResult(UnaryOp op, DType in, DType out) {
        DType want;
        try {
            want = op.resultType(in);
        } catch (RuntimeException e) {
            throw new JBurnException(op.opName(), op.opName() + " is not defined on " + in.shortName());
        }
        if (want != out) throw new JBurnException(op.opName(), "gives " + want.shortName() + " on " + in.shortName() + ", not " + out.shortName());
    }

    /** Each operand's shape broadcasts (NumPy rules) to {@code outShape}. */
    static void broadcasts(String op, List<Operand> xs, Shape outShape) {
        for (Operand x : xs) {
            if (!x.shape().broadcastsTo(outShape)) throw new JBurnException(op, "shape " + x.shape() + " does not broadcast to " + outShape);
        }
    }

    /** {@code axes} sorted, unique and within {@code [0, rank)}. */
    static void axes(String op, int[] axes, int rank) {
        for (int i = 0; i < axes.length; i++) {
            if (axes[i] < 0 || axes[i] >= rank || (i > 0 && axes[i] <= axes[i - 1])) {
                throw new JBurnException(op, "axes " + Arrays.toString(axes) + " must be sorted, unique and within [0, " + rank + ")");
            }
        }
    }

    /** {@code perm} is a permutation of {@code [0, rank)}. */
    static void permutation(String op, int[] perm, int rank) {
        boolean[] seen = new boolean[rank];
        boolean ok = perm.length == rank;
        for (int p : perm) {
            if (!ok || p < 0 || p >= rank || seen[p]) {
                ok = false;
                break;
            }
            seen[p] = true;
        }
        if (!ok) throw new JBurnException(op, Arrays.toString(perm) + " is not a permutation of " + rank + " axes");
    }

    /** {@link dev.jburn.spi.Backend#broadcast}'s contract: input axis {@code i} goes to output axis {@code axes[i]}, of size 1 or equal. */
    static void broadcastAxes(String op, Shape in, Shape out, int[] axes) {
        boolean ok = axes.length == in.rank();
        for (int i = 0; ok && i < axes.length; i++) {
            ok = axes[i] >= 0 && axes[i] < out.rank() && (i == 0 || axes[i] > axes[i - 1])
                    && (in.dim(i) == 1 || in.dim(i) == out.dim(axes[i]));
        }
        if (!ok) throw new JBurnException(op, "shape " + in + " with axes " + Arrays.toString(axes) + " does not broadcast to " + out);
    }

    /** {@link dev.jburn.spi.Backend#slice}'s contract: one start, length and stride per axis, the window inside {@code in}. */
    static void slice(String op, Shape in, int[] starts, int[] lengths, int[] strides) {
        boolean ok = starts.length == in.rank() && lengths.length == in.rank() && strides.length == in.rank();
        for (int k = 0; ok && k < starts.length; k++) {
            ok = starts[k] >= 0 && lengths[k] >= 0 && strides[k] >= 1 && (long) starts[k] + lengths[k] <= in.dim(k);
        }
        if (!ok) {
            throw new JBurnException(op, "starts " + Arrays.toString(starts) + ", lengths " + Arrays.toString(lengths) + ", strides "
                    + Arrays.toString(strides) + " do not select a window of " + in);
        }
    }

    /** {@code update} (same dtype and rank) lies inside {@code x} when placed at {@code starts}. */
    static void placed(String op, Operand x, int[] starts, Operand update) {
        sameType(op, x, update);
        Shape in = x.shape(), u = update.shape();
        boolean ok = starts.length == in.rank() && u.rank() == in.rank();
        for (int k = 0; ok && k < starts.length; k++) ok = starts[k] >= 0 && (long) starts[k] + u.dim(k) <= in.dim(k);
        if (!ok) throw new JBurnException(op, "an update " + u + " at " + Arrays.toString(starts) + " does not fit in " + in);
    }

    /** A one-element pad value of {@code x}'s dtype, one low, high and interior padding per axis, interior at least 0. */
    static void padding(String op, Operand x, Operand padValue, int[] lo, int[] hi, int[] interior) {
        sameType(op, x, padValue);
        if (padValue.size() != 1) throw new JBurnException(op, "the pad value is one element, not " + padValue.shape());
        int r = x.shape().rank();
        boolean ok = lo.length == r && hi.length == r && interior.length == r;
        for (int k = 0; ok && k < r; k++) {
            long n = x.shape().dim(k);
            ok = interior[k] >= 0 && (long) lo[k] + hi[k] + n + Math.max(0, n - 1) * interior[k] >= 0;
        }
        if (!ok) {
            throw new JBurnException(op, "padding lo " + Arrays.toString(lo) + ", hi " + Arrays.toString(hi) + ", interior "
                    + Arrays.toString(interior) + " of " + x.shape() + " (interior at least 0, no axis cropped below 0)");
        }
    }

    /** Parts of one dtype and rank whose axes other than {@code axis} match. */
    static void concatenable(String op, List<Operand> parts, int axis) {
        if (parts.isEmpty()) throw new JBurnException(op, "nothing to join");
        operands(op, parts);
        Shape first = parts.getFirst().shape();
        if (axis < 0 || axis >= first.rank()) throw new JBurnException(op, "axis " + axis + " of rank " + first.rank());
        for (Operand p : parts) {
            sameType(op, parts.getFirst(), p);
            boolean ok = p.shape().rank() == first.rank();
            for (int k = 0; ok && k < first.rank(); k++) ok = k == axis || p.shape().dim(k) == first.dim(k);
            if (!ok) throw new JBurnException(op, "parts " + first + " and " + p.shape() + " differ off axis " + axis);
        }
    }

    /** {@code axes} distinct and within {@code [0, rank)}, in any order. */
    static void distinctAxes(String op, int[] axes, int rank) {
        int[] sorted = axes.clone();
        Arrays.sort(sorted);
        axes(op, sorted, rank);
    }

    /** {@code axis} is an axis of {@code rank}. */
    static void axis(String op, int axis, int rank) {
        if (axis < 0 || axis >= rank) throw new JBurnException(op, "axis " + axis + " of rank " + rank);
    }

    /** {@code axis} is {@code -1} (the whole tensor) or an axis of {@code rank}. */
    static void axisOrAll(String op, int axis, int rank) {
        if (axis < -1 || axis >= rank) throw new JBurnException(op, "axis " + axis + " of rank " + rank + " (-1: all)");
    }

    /**
     * Integer {@code indices} whose last axis has one column per axis of {@code axes} (distinct axes of
     * {@code x}), of rank {@code rank} when it is not {@code -1}. Their values are checked where they are read.
     */
    static void indices(String op, Shape x, Operand indices, int[] axes, int rank) {
        if (!indices.dtype().isInteger()) throw new JBurnException(op, "indices are integers, not " + indices.dtype().shortName());
        Shape s = indices.shape();
        if (s.rank() == 0 || s.dim(s.rank() - 1) != axes.length || (rank >= 0 && s.rank() != rank)) {
            throw new JBurnException(op, "indices " + s + " for axes " + Arrays.toString(axes) + ": one column per axis expected");
        }
        distinctAxes(op, axes, x.rank());
    }

    /** {@code updates} is {@code [rows] ++} the target's axes not in {@code axes}. */
    static void updates(String op, Shape target, Operand indices, Operand updates, int[] axes) {
        int[] want = new int[1 + target.rank() - axes.length];
        want[0] = indices.shape().dim(0);
        boolean[] indexed = new boolean[target.rank()];
        for (int a : axes) indexed[a] = true;
        for (int d = 0, k = 1; d < target.rank(); d++) if (!indexed[d]) want[k++] = target.dim(d);
        if (!updates.shape().equals(Shape.of(want))) {
            throw new JBurnException(op, "updates " + updates.shape() + " for " + indices.shape() + " indices into " + target + ": " + Shape.of(want) + " expected");
        }
    }

    /**
     * {@link dev.jburn.spi.Backend#windowScatter}'s contract: a window per axis of {@code x} (sizes, strides and
     * dilations at least 1, padding at least 0), {@code source} of one element per window, a one-element
     * {@code init} of the source's dtype.
     */
    static void windowScatter(String op, Operand x, Operand source, Operand init, dev.jburn.spi.WindowSpec spec) {
        sameType(op, source, init);
        if (init.size() != 1) throw new JBurnException(op, "init is one element, not " + init.shape());
        int r = x.shape().rank();
        boolean ok = spec.rank() == r && spec.strides().length == r && spec.padLow().length == r && spec.padHigh().length == r
                && spec.dilations().length == r && source.shape().rank() == r;
        for (int k = 0; ok && k < r; k++) {
            ok = spec.dims()[k] >= 1 && spec.strides()[k] >= 1 && spec.dilations()[k] >= 1 && spec.padLow()[k] >= 0 && spec.padHigh()[k] >= 0;
            long padded = (long) x.shape().dim(k) + spec.padLow()[k] + spec.padHigh()[k];
            long extent = (spec.dims()[k] - 1L) * spec.dilations()[k] + 1;
            ok = ok && source.shape().dim(k) == (padded < extent ? 0 : (padded - extent) / spec.strides()[k] + 1);
        }
        if (!ok) {
            throw new JBurnException(op, "windows " + Arrays.toString(spec.dims()) + " (strides " + Arrays.toString(spec.strides()) + ", padding "
                    + Arrays.toString(spec.padLow()) + "/" + Arrays.toString(spec.padHigh()) + ", dilations " + Arrays.toString(spec.dilations())
                    + ") over " + x.shape() + " do not give a source of " + source.shape());
        }
    }

    /**
     * {@link dev.jburn.spi.Backend#conv}'s contract: input {@code [N, C, s...]} and kernel {@code [O, C/featureGroups, k...]} of
     * one spatial rank, the spec's arrays of that rank, strides and dilations at least 1, the group counts dividing what they split.
     */
    static void conv(String op, Shape input, Shape kernel, ConvSpec spec) {
        int r = spec.spatialRank();
        boolean ok = input.rank() == r + 2 && kernel.rank() == r + 2 && spec.padLow().length == r && spec.padHigh().length == r
                && spec.inputDilation().length == r && spec.kernelDilation().length == r
                && spec.featureGroups() >= 1 && spec.batchGroups() >= 1 && (spec.featureGroups() == 1 || spec.batchGroups() == 1);
        int groups = Math.max(spec.featureGroups(), spec.batchGroups());
        ok = ok && kernel.dim(0) % groups == 0 && input.dim(1) == (long) kernel.dim(1) * spec.featureGroups()
                && input.dim(0) % spec.batchGroups() == 0;
        for (int d = 0; ok && d < r; d++) ok = spec.strides()[d] >= 1 && spec.inputDilation()[d] >= 1 && spec.kernelDilation()[d] >= 1;
        if (!ok) {
            throw new JBurnException(op, "input " + input + " and kernel " + kernel + " do not fit the convolution (strides "
                    + Arrays.toString(spec.strides()) + ", feature groups " + spec.featureGroups() + ", batch groups " + spec.batchGroups() + ")");
        }
    }
}
