package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.WindowSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Output types of every {@link Prim} from its input types, with the checks a backend relies on
 * (the front end has made them already for traced graphs; passes and hand-built graphs are
 * checked here). Used when building graphs and by the {@link Verifier}.
 */
public final class ShapeInference {
    private ShapeInference() {}

    /**
     * The output types of {@code prim} applied to inputs of types {@code in}.
     *
     * @throws JBurnException naming the prim when the inputs do not fit it
     */
    public static List<TensorType> infer(Prim prim, List<TensorType> in) {
        String op = prim.name();
        return switch (prim) {
            case Prim.Constant c -> {
                arity(op, in, 0);
                if (c.bytes().length != c.type().byteSize()) {
                    throw fail(op, "holds " + c.bytes().length + " bytes but its type " + c.type() + " needs " + c.type().byteSize());
                }
                yield one(c.dtype(), c.shape());
            }
            case Prim.Iota i -> {
                arity(op, in, 0);
                if (i.axis() < -1 || i.axis() >= i.shape().rank()) throw fail(op, "axis " + i.axis() + " is out of range for " + i.shape());
                yield one(i.dtype(), i.shape());
            }
            case Prim.Unary u -> {
                arity(op, in, 1);
                yield one(u.out(), in.getFirst().shape());
            }
            case Prim.Binary b -> {
                arity(op, in, 2);
                sameDtype(op, in.get(0), in.get(1));
                broadcastsTo(op, b.outShape(), in.get(0), in.get(1));
                if (b.out() != in.get(0).dtype() && b.out() != DType.PRED) {
                    throw fail(op, "result type " + b.out().shortName() + " is neither the operand type " + in.get(0).dtype().shortName() + " nor pred");
                }
                yield one(b.out(), b.outShape());
            }
            case Prim.Select s -> {
                arity(op, in, 3);
                if (in.get(0).dtype() != DType.PRED) throw fail(op, "the predicate must be pred, got " + in.get(0));
                sameDtype(op, in.get(1), in.get(2));
                broadcastsTo(op, s.outShape(), in.get(0), in.get(1), in.get(2));
                yield one(in.get(1).dtype(), s.outShape());
            }
            case Prim.Cast c -> {
                arity(op, in, 1);
                yield one(c.to(), in.getFirst().shape());
            }
            case Prim.Reduce r -> {
                arity(op, in, 1);
                Shape s = in.getFirst().shape();
                sortedAxes(op, r.axes(), s.rank());
                yield one(r.out(), remove(s, r.axes()));
            }
            case Prim.ArgReduce a -> {
                arity(op, in, 1);
                Shape s = in.getFirst().shape();
                if (a.axis() == -1) yield one(a.out(), Shape.scalar());
                axis(op, a.axis(), s.rank());
                yield one(a.out(), remove(s, new int[] {a.axis()}));
            }
            case Prim.Cumulative c -> {
                arity(op, in, 1);
                axis(op, c.axis(), in.getFirst().shape().rank());
                yield List.of(in.getFirst());
            }
            case Prim.Transpose t -> {
                arity(op, in, 1);
                Shape s = in.getFirst().shape();
                permutation(op, t.perm(), s.rank());
                int[] out = new int[t.perm().length];
                for (int i = 0; i < out.length; i++) out[i] = s.dim(t.perm()[i]);
                yield one(in.getFirst().dtype(), Shape.of(out));
            }
            case Prim.Broadcast b -> {
                arity(op, in, 1);
                Shape s = in.getFirst().shape();
                int[] axes = b.axes();
                if (axes.length != s.rank()) throw fail(op, "needs one axis per input axis, got " + GraphText.str(axes) + " for " + in.getFirst());
                for (int i = 0; i < axes.length; i++) {
                    axis(op, axes[i], b.outShape().rank());
                    if (i > 0 && axes[i] <= axes[i - 1]) throw fail(op, "axes must increase, got " + GraphText.str(axes));
                    if (s.dim(i) != 1 && s.dim(i) != b.outShape().dim(axes[i])) {
                        throw fail(op, "cannot broadcast " + in.getFirst() + " to " + b.outShape() + " with axes " + GraphText.str(axes));
                    }
                }
                yield one(in.getFirst().dtype(), b.outShape());
            }
            case Prim.Slice sl -> {
                arity(op, in, 1);
                Shape s = in.getFirst().shape();
                int r = s.rank();
                count(op, "starts", sl.starts(), r);
                count(op, "lengths", sl.lengths(), r);
                count(op, "strides", sl.strides(), r);
                int[] out = new int[r];
                for (int i = 0; i < r; i++) {
                    int st = sl.starts()[i], len = sl.lengths()[i], str = sl.strides()[i];
                    if (st < 0 || len < 0 || str < 1 || (long) st + len > s.dim(i)) {
                        throw fail(op, "start " + st + ", length " + len + ", stride " + str + " do not fit axis " + i + " of " + in.getFirst());
                    }
                    out[i] = (len + str - 1) / str;
                }
                yield one(in.getFirst().dtype(), Shape.of(out));
            }
            case Prim.PutSlice ps -> {
                arity(op, in, 2);
                sameDtype(op, in.get(0), in.get(1));
                Shape s = in.get(0).shape(), u = in.get(1).shape();
                if (u.rank() != s.rank()) throw fail(op, "update " + in.get(1) + " must have the rank of " + in.get(0));
                count(op, "starts", ps.starts(), s.rank());
                for (int i = 0; i < s.rank(); i++) {
                    if (ps.starts()[i] < 0 || (long) ps.starts()[i] + u.dim(i) > s.dim(i)) {
                        throw fail(op, "update " + in.get(1) + " at " + GraphText.str(ps.starts()) + " does not fit " + in.get(0));
                    }
                }
                yield List.of(in.get(0));
            }
            case Prim.Pad p -> {
                arity(op, in, 2);
                sameDtype(op, in.get(0), in.get(1));
                if (in.get(1).shape().rank() != 0) throw fail(op, "the pad value must be a scalar, got " + in.get(1));
                Shape s = in.get(0).shape();
                int r = s.rank();
                count(op, "lo", p.lo(), r);
                count(op, "hi", p.hi(), r);
                count(op, "interior", p.interior(), r);
                int[] out = new int[r];
                for (int i = 0; i < r; i++) {
                    int n = s.dim(i);
                    long size = (long) p.lo()[i] + p.hi()[i] + n + (long) Math.max(n - 1, 0) * p.interior()[i];
                    if (p.interior()[i] < 0 || size < 0 || size > Integer.MAX_VALUE) throw fail(op, "padding gives size " + size + " on axis " + i);
                    out[i] = (int) size;
                }
                yield one(in.get(0).dtype(), Shape.of(out));
            }
            case Prim.Reverse rv -> {
                arity(op, in, 1);
                for (int a : rv.axes()) axis(op, a, in.getFirst().shape().rank());
                yield List.of(in.getFirst());
            }
            case Prim.Concatenate c -> concatenate(op, c.axis(), in);
            case Prim.Gather g -> {
                arity(op, in, 2);
                Shape x = in.get(0).shape(), idx = in.get(1).shape();
                if (!in.get(1).dtype().isInteger() || idx.rank() < 1 || idx.dim(-1) != g.axes().length) {
                    throw fail(op, "indices " + in.get(1) + " must be integers of shape [..., " + g.axes().length + "]");
                }
                boolean[] indexed = new boolean[x.rank()];
                for (int a : g.axes()) {
                    axis(op, a, x.rank());
                    indexed[a] = true;
                }
                List<Integer> out = new ArrayList<>();
                for (int i = 0; i < idx.rank() - 1; i++) out.add(idx.dim(i));
                for (int i = 0; i < x.rank(); i++) if (!indexed[i]) out.add(x.dim(i));
                yield one(in.get(0).dtype(), shape(out));
            }
            case Prim.IndexedUpdate u -> {
                arity(op, in, 3);
                sameDtype(op, in.get(0), in.get(2));
                if (!in.get(1).dtype().isInteger()) throw fail(op, "indices must be integers, got " + in.get(1));
                for (int a : u.axes()) axis(op, a, in.get(0).shape().rank());
                yield List.of(in.get(0));
            }
            case Prim.Sort s -> {
                arity(op, in, 1);
                axis(op, s.axis(), in.getFirst().shape().rank());
                yield List.of(in.getFirst());
            }
            case Prim.Argsort s -> {
                arity(op, in, 1);
                axis(op, s.axis(), in.getFirst().shape().rank());
                yield one(s.indexType(), in.getFirst().shape());
            }
            case Prim.Dot d -> dot(op, d, in);
            case Prim.Conv c -> {
                arity(op, in, 2);
                sameDtype(op, in.get(0), in.get(1));
                yield one(c.out(), conv(op, c.spec(), in.get(0).shape(), in.get(1).shape()));
            }
            case Prim.WindowReduce w -> {
                arity(op, in, 1);
                yield one(in.getFirst().dtype(), window(op, w.spec(), in.getFirst().shape()));
            }
            case Prim.WindowScatter w -> {
                arity(op, in, 3);
                sameDtype(op, in.get(1), in.get(2));
                if (in.get(2).shape().rank() != 0) throw fail(op, "init must be a scalar, got " + in.get(2));
                if (!window(op, w.spec(), in.get(0).shape()).equals(in.get(1).shape())) {
                    throw fail(op, "source " + in.get(1) + " does not have the window output shape of " + in.get(0));
                }
                yield one(in.get(1).dtype(), in.get(0).shape());
            }
            case Prim.Cholesky c -> {
                arity(op, in, 1);
                square(op, in.getFirst());
                yield List.of(in.getFirst());
            }
            case Prim.TriangularSolve t -> {
                arity(op, in, 2);
                sameDtype(op, in.get(0), in.get(1));
                square(op, in.get(0));
                int ra = in.get(0).shape().rank(), rb = in.get(1).shape().rank();
                if (rb != ra && rb != ra - 1) throw fail(op, "b " + in.get(1) + " does not fit a " + in.get(0));
                yield List.of(in.get(1));
            }
            case Prim.Lu l -> {
                arity(op, in, 1);
                square(op, in.getFirst());
                yield List.of(in.getFirst(), in.getFirst(), in.getFirst());
            }
            case Prim.Qr q -> {
                arity(op, in, 1);
                int[] b = batch(op, in.getFirst());
                int m = in.getFirst().shape().dim(-2), n = in.getFirst().shape().dim(-1), k = Math.min(m, n);
                DType t = in.getFirst().dtype();
                yield List.of(new TensorType(t, withBatch(b, m, q.complete() ? m : k)), new TensorType(t, withBatch(b, q.complete() ? m : k, n)));
            }
            case Prim.Eigh e -> {
                arity(op, in, 1);
                square(op, in.getFirst());
                int[] b = batch(op, in.getFirst());
                int n = in.getFirst().shape().dim(-1);
                yield List.of(new TensorType(in.getFirst().dtype(), withBatch(b, n)), in.getFirst());
            }
            case Prim.Svd s -> {
                arity(op, in, 1);
                int[] b = batch(op, in.getFirst());
                int m = in.getFirst().shape().dim(-2), n = in.getFirst().shape().dim(-1), k = Math.min(m, n);
                DType t = in.getFirst().dtype();
                boolean full = s.fullMatrices();
                yield List.of(new TensorType(t, withBatch(b, m, full ? m : k)), new TensorType(t, withBatch(b, k)),
                        new TensorType(t, withBatch(b, full ? n : k, n)));
            }
            case Prim.Reshape r -> {
                arity(op, in, 1);
                if (r.shape().size() != in.getFirst().shape().size()) throw fail(op, "cannot view " + in.getFirst() + " as " + r.shape());
                yield one(in.getFirst().dtype(), r.shape());
            }
            case Prim.Bitcast b -> {
                arity(op, in, 1);
                if (b.to().bits() != in.getFirst().dtype().bits()) throw fail(op, "cannot view " + in.getFirst() + " as " + b.to().shortName());
                yield one(b.to(), in.getFirst().shape());
            }
            case Prim.GradientMark m -> {
                if (in.isEmpty()) throw fail(op, "needs at least one input");
                yield List.of(in.getLast());
            }
            case Prim.Cond c -> cond(op, c, in);
            case Prim.WhileLoop w -> whileLoop(op, w, in);
            case Prim.Fused f -> {
                requireInputs(op, "body", f.body(), in);
                yield types(f.body().outputs());
            }
        };
    }

    // ---- the larger rules ---------------------------------------------------------------------

    private static List<TensorType> concatenate(String op, int axis, List<TensorType> in) {
        if (in.isEmpty()) throw fail(op, "needs at least one part");
        TensorType first = in.getFirst();
        axis(op, axis, first.shape().rank());
        long total = 0;
        for (TensorType t : in) {
            sameDtype(op, first, t);
            boolean ok = t.shape().rank() == first.shape().rank();
            for (int i = 0; ok && i < t.shape().rank(); i++) ok = i == axis || t.shape().dim(i) == first.shape().dim(i);
            if (!ok) throw fail(op, "part " + t + " does not match " + first + " outside axis " + axis);
            total += t.shape().dim(axis);
        }
        if (total > Integer.MAX_VALUE) throw fail(op, "axis " + axis + " would hold " + total + " elements");
        return one(first.dtype(), first.shape().withDim(axis, (int) total));
    }

    private static List<TensorType> dot(String op, Prim.Dot d, List<TensorType> in) {
        arity(op, in, 2);
        TensorType a = in.get(0), b = in.get(1);
        sameDtype(op, a, b);
        if (a.dtype() != d.out()) throw fail(op, "operands " + a + " and " + b + " must have the result type " + d.out().shortName());
        Shape sa = a.shape(), sb = b.shape();
        if (d.contractA().length != d.contractB().length || d.batchA().length != d.batchB().length) {
            throw fail(op, "contraction or batch axes differ in number between " + a + " and " + b);
        }
        for (int i = 0; i < d.contractA().length; i++) {
            axis(op, d.contractA()[i], sa.rank());
            axis(op, d.contractB()[i], sb.rank());
            if (sa.dim(d.contractA()[i]) != sb.dim(d.contractB()[i])) throw fail(op, "contracted sizes differ between " + a + " and " + b);
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < d.batchA().length; i++) {
            axis(op, d.batchA()[i], sa.rank());
            axis(op, d.batchB()[i], sb.rank());
            if (sa.dim(d.batchA()[i]) != sb.dim(d.batchB()[i])) throw fail(op, "batch sizes differ between " + a + " and " + b);
            out.add(sa.dim(d.batchA()[i]));
        }
        for (int i = 0; i < sa.rank(); i++) if (free(i, d.batchA(), d.contractA())) out.add(sa.dim(i));
        for (int i = 0; i < sb.rank(); i++) if (free(i, d.batchB(), d.contractB())) out.add(sb.dim(i));
        return one(d.out(), shape(out));
    }

    private static Shape conv(String op, ConvSpec spec, Shape input, Shape kernel) {
        int sr = spec.spatialRank();
        if (input.rank() != sr + 2 || kernel.rank() != sr + 2) throw fail(op, "input " + input + " and kernel " + kernel + " need rank " + (sr + 2));
        int fg = spec.featureGroups(), bg = spec.batchGroups();
        if (fg < 1 || bg < 1 || input.dim(1) != kernel.dim(1) * fg || input.dim(0) % bg != 0 || kernel.dim(0) % Math.max(fg, bg) != 0) {
            throw fail(op, "channels or groups do not fit: input " + input + ", kernel " + kernel + ", groups " + fg + "/" + bg);
        }
        int[] out = new int[sr + 2];
        out[0] = input.dim(0) / bg;
        out[1] = kernel.dim(0);
        for (int i = 0; i < sr; i++) {
            long in = input.dim(i + 2) == 0 ? 0 : (long) (input.dim(i + 2) - 1) * spec.inputDilation()[i] + 1;
            long k = kernel.dim(i + 2) == 0 ? 0 : (long) (kernel.dim(i + 2) - 1) * spec.kernelDilation()[i] + 1;
            out[i + 2] = windows(op, in + spec.padLow()[i] + spec.padHigh()[i], k, spec.strides()[i]);
        }
        return Shape.of(out);
    }

    private static Shape window(String op, WindowSpec spec, Shape x) {
        if (spec.rank() != x.rank()) throw fail(op, "window of rank " + spec.rank() + " for " + x);
        int[] out = new int[x.rank()];
        for (int i = 0; i < out.length; i++) {
            long w = (long) (spec.dims()[i] - 1) * spec.dilations()[i] + 1;
            out[i] = windows(op, (long) x.dim(i) + spec.padLow()[i] + spec.padHigh()[i], w, spec.strides()[i]);
        }
        return Shape.of(out);
    }

    /** Number of windows of extent {@code window} at {@code stride} in {@code padded} elements. */
    private static int windows(String op, long padded, long window, int stride) {
        if (stride < 1) throw fail(op, "strides must be positive, got " + stride);
        if (padded < window) return 0;
        return (int) ((padded - window) / stride + 1);
    }

    private static List<TensorType> cond(String op, Prim.Cond c, List<TensorType> in) {
        if (in.isEmpty() || !in.getFirst().equals(new TensorType(DType.PRED, Shape.scalar()))) {
            throw fail(op, "the first input must be a pred scalar, got " + (in.isEmpty() ? "none" : in.getFirst()));
        }
        List<TensorType> captures = in.subList(1, in.size());
        requireInputs(op, "true branch", c.onTrue(), captures);
        requireInputs(op, "false branch", c.onFalse(), captures);
        List<TensorType> t = types(c.onTrue().outputs()), f = types(c.onFalse().outputs());
        if (!t.equals(f)) throw fail(op, "the branches return different types: " + t + " and " + f);
        return t;
    }

    private static List<TensorType> whileLoop(String op, Prim.WhileLoop w, List<TensorType> in) {
        requireInputs(op, "condition", w.cond(), in);
        requireInputs(op, "body", w.body(), in);
        int k = w.stateCount();
        if (k > in.size()) throw fail(op, "the body returns " + k + " values but the loop has " + in.size() + " inputs");
        List<TensorType> state = in.subList(0, k);
        List<TensorType> c = types(w.cond().outputs());
        if (!c.equals(List.of(new TensorType(DType.PRED, Shape.scalar())))) throw fail(op, "the condition must return one pred scalar, got " + c);
        List<TensorType> next = types(w.body().outputs());
        if (!next.equals(state)) throw fail(op, "the body returns " + next + " for the state " + state);
        return List.copyOf(state);
    }

    private static void requireInputs(String op, String what, Graph g, List<TensorType> in) {
        List<TensorType> want = types(g.inputs());
        if (!want.equals(in)) throw fail(op, "the " + what + " takes " + want + " but is given " + in);
    }

    // ---- small checks -------------------------------------------------------------------------

    static List<TensorType> types(List<Value> vs) { return vs.stream().map(Value::type).toList(); }

    private static List<TensorType> one(DType t, Shape s) { return List.of(new TensorType(t, s)); }

    private static JBurnException fail(String op, String reason) { return new JBurnException(op, reason); }

    private static void arity(String op, List<TensorType> in, int n) {
        if (in.size() != n) throw fail(op, "takes " + n + " inputs, got " + in.size() + " " + in);
    }

    private static void sameDtype(String op, TensorType a, TensorType b) {
        if (a.dtype() != b.dtype()) throw fail(op, "operands must share one dtype, got " + a + " and " + b);
    }

    private static void broadcastsTo(String op, Shape out, TensorType... ts) {
        for (TensorType t : ts) if (!t.shape().broadcastsTo(out)) throw fail(op, t + " does not broadcast to " + out);
    }

    private static void axis(String op, int axis, int rank) {
        if (axis < 0 || axis >= rank) throw fail(op, "axis " + axis + " is out of range for rank " + rank);
    }

    private static void sortedAxes(String op, int[] axes, int rank) {
        for (int i = 0; i < axes.length; i++) {
            axis(op, axes[i], rank);
            if (i > 0 && axes[i] <= axes[i - 1]) throw fail(op, "axes must be sorted and unique, got " + GraphText.str(axes));
        }
    }

    private static void permutation(String op, int[] perm, int rank) {
        boolean[] seen = new boolean[rank];
        if (perm.length != rank) throw fail(op, "permutation " + GraphText.str(perm) + " for rank " + rank);
        for (int p : perm) {
            axis(op, p, rank);
            if (seen[p]) throw fail(op, "permutation " + GraphText.str(perm) + " repeats axis " + p);
            seen[p] = true;
        }
    }

    private static void count(String op, String what, int[] a, int rank) {
        if (a.length != rank) throw fail(op, "needs " + rank + " " + what + ", got " + GraphText.str(a));
    }

    private static void square(String op, TensorType t) {
        Shape s = t.shape();
        if (s.rank() < 2 || s.dim(-1) != s.dim(-2)) throw fail(op, "needs square matrices, got " + t);
    }

    private static int[] batch(String op, TensorType t) {
        if (t.shape().rank() < 2) throw fail(op, "needs matrices, got " + t);
        return Arrays.copyOf(t.shape().dims(), t.shape().rank() - 2);
    }

    private static Shape withBatch(int[] batch, int... tail) {
        int[] d = Arrays.copyOf(batch, batch.length + tail.length);
        System.arraycopy(tail, 0, d, batch.length, tail.length);
        return Shape.of(d);
    }

    private static Shape remove(Shape s, int[] axes) {
        List<Integer> out = new ArrayList<>();
        outer:
        for (int i = 0; i < s.rank(); i++) {
            for (int a : axes) if (a == i) continue outer;
            out.add(s.dim(i));
        }
        return shape(out);
    }

    private static boolean free(int axis, int[] batch, int[] contract) {
        for (int x : batch) if (x == axis) return false;
        for (int x : contract) if (x == axis) return false;
        return true;
    }

    private static Shape shape(List<Integer> dims) { return Shape.of(dims.stream().mapToInt(Integer::intValue).toArray()); }
}
