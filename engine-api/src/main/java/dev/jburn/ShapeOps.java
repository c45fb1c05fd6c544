package dev.jburn;

import dev.jburn.op.ShapeOp;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Front end of the movement ops: validation with Nx's rules and messages, type promotion,
 * then one backend call (or a composition of them for squeeze, newAxis, stack and tile).
 */
final class ShapeOps {
    private ShapeOps() {}

    // ---- helpers shared with IndexOps and DotOps ----------------------------------------------

    /** A scalar of {@code type} holding the integer {@code v} (wrapped to the width), on {@code engine}. */
    static Tensor scalarOn(Engine engine, DType type, long v) {
        MemorySegment host = ElementwiseOperands.scalarBytes(type, v);
        return Tensor.wrap(engine, engine.backend().upload(host), type, Shape.scalar()).remember(host);
    }

    /** A scalar of {@code type} holding {@code v} converted with Nx cast semantics, on {@code engine}. */
    static Tensor scalarOn(Engine engine, DType type, double v) {
        MemorySegment host = ElementwiseOperands.scalarBytes(type, v);
        return Tensor.wrap(engine, engine.backend().upload(host), type, Shape.scalar()).remember(host);
    }

    static String str(int[] a) { return Arrays.toString(a); }

    private static String name(ShapeOp op) { return op.opName(); }

    // ---- transpose, broadcast, squeeze, newAxis -------------------------------------------------

    static Tensor transpose(Tensor t) {
        int r = t.rank();
        int[] perm = new int[r];
        for (int i = 0; i < r; i++) perm[i] = r - 1 - i;
        return transpose(t, perm);
    }

    static Tensor transpose(Tensor t, int[] perm) {
        String op = name(ShapeOp.TRANSPOSE);
        if (perm.length != t.rank()) {
            throw new JBurnException(op, "expected length of permutation (" + perm.length + ") to match rank of shape ("
                    + t.rank() + "), got permutation " + str(perm) + " for shape " + t.shape());
        }
        int[] p = t.shape().normalizeAxes(op, perm);
        int[] in = t.shape().dims();
        int[] out = new int[p.length];
        boolean identity = true;
        for (int i = 0; i < p.length; i++) {
            out[i] = in[p[i]];
            identity &= p[i] == i;
        }
        if (identity) return t.reshape(t.shape());
        return Tensor.wrap(t.engine(), t.backend().transpose(t.operand(), p), t.dtype(), Shape.of(out));
    }

    static Tensor broadcast(Tensor t, Shape shape) {
        String op = name(ShapeOp.BROADCAST);
        if (!t.shape().broadcastsTo(shape)) {
            throw new JBurnException(op, "cannot broadcast tensor of dimensions " + t.shape() + " to " + shape);
        }
        int[] axes = new int[t.rank()];
        for (int i = 0; i < axes.length; i++) axes[i] = shape.rank() - t.rank() + i;
        return broadcastChecked(t, shape, axes);
    }

    static Tensor broadcast(Tensor t, Shape shape, int[] axes) {
        String op = name(ShapeOp.BROADCAST);
        if (axes.length != t.rank()) {
            throw new JBurnException(op, "expected length of axes (" + axes.length + ") to match rank of shape ("
                    + t.rank() + "), got axes " + str(axes) + " for shape " + t.shape());
        }
        int[] a = shape.normalizeAxes(op, axes);
        for (int i = 0; i < a.length; i++) {
            int d = t.shape().dim(i);
            boolean ordered = i == 0 || a[i] > a[i - 1];
            if (!ordered || (d != 1 && d != shape.dim(a[i]))) {
                throw new JBurnException(op, "cannot broadcast tensor of dimensions " + t.shape() + " to " + shape
                        + " with axes " + str(axes) + (ordered ? "" : " (axes must be increasing)"));
            }
        }
        return broadcastChecked(t, shape, a);
    }

    private static Tensor broadcastChecked(Tensor t, Shape shape, int[] axes) {
        if (shape.equals(t.shape())) return t.reshape(shape);
        if (shape.size() == t.size()) return t.reshape(shape); // only 1s were added: a relabelling
        return Tensor.wrap(t.engine(), t.backend().broadcast(t.operand(), shape, axes), t.dtype(), shape);
    }

    static Tensor squeeze(Tensor t) {
        List<Integer> keep = new ArrayList<>();
        for (int d : t.shape().dims()) if (d != 1) keep.add(d);
        return t.reshape(Shape.of(keep.stream().mapToInt(Integer::intValue).toArray()));
    }

    static Tensor squeeze(Tensor t, int[] axes) {
        String op = name(ShapeOp.SQUEEZE);
        int[] a = t.shape().normalizeAxes(op, axes);
        boolean[] drop = new boolean[t.rank()];
        for (int ax : a) {
            int d = t.shape().dim(ax);
            if (d != 1) {
                throw new JBurnException(op, "cannot squeeze dimensions whose sizes are not 1, got " + d + " for dimension "
                        + ax + " of shape " + t.shape());
            }
            drop[ax] = true;
        }
        int[] dims = t.shape().dims();
        int[] out = new int[dims.length - a.length];
        for (int i = 0, j = 0; i < dims.length; i++) if (!drop[i]) out[j++] = dims[i];
        return t.reshape(Shape.of(out));
    }

    static Tensor newAxis(Tensor t, int axis) {
        int r = t.rank();
        if (axis < -r - 1 || axis > r) {
            throw new JBurnException(name(ShapeOp.NEW_AXIS), "given axis (" + axis + ") invalid for a new axis in shape "
                    + t.shape() + ", expected " + (-r - 1) + " to " + r);
        }
        int a = axis < 0 ? axis + r + 1 : axis;
        int[] dims = t.shape().dims();
        int[] out = new int[r + 1];
        for (int i = 0, j = 0; i <= r; i++) out[i] = i == a ? 1 : dims[j++];
        return t.reshape(Shape.of(out));
    }

    // ---- slice, putSlice ------------------------------------------------------------------------

    static Tensor slice(Tensor t, int[] starts, int[] lengths) {
        int[] strides = new int[t.rank()];
        Arrays.fill(strides, 1);
        return slice(t, starts, lengths, strides);
    }

    static Tensor slice(Tensor t, int[] starts, int[] lengths, int[] strides) {
        String op = name(ShapeOp.SLICE);
        Shape s = t.shape();
        checkCount(op, "start indices", starts, s);
        checkCount(op, "lengths", lengths, s);
        checkCount(op, "strides", strides, s);
        int r = s.rank();
        int[] st = new int[r];
        int[] out = new int[r];
        boolean whole = true;
        for (int i = 0; i < r; i++) {
            int dim = s.dim(i);
            int len = lengths[i];
            if (len > dim) {
                throw new JBurnException(op, "length at axis " + i + " must be less than axis size of " + dim + ", got: " + len
                        + " (shape " + s + ")");
            }
            if (len < 1 && !(len == 0 && dim == 0)) {
                throw new JBurnException(op, "length at axis " + i + " must be greater than or equal to 1, got: " + len
                        + " (shape " + s + ")");
            }
            if (strides[i] < 1) {
                throw new JBurnException(op, "stride at axis " + i + " must be positive, got: " + strides[i]);
            }
            st[i] = Math.clamp(starts[i], 0, dim - len);
            out[i] = (len + strides[i] - 1) / strides[i];
            whole &= out[i] == dim;
        }
        if (whole) return t.reshape(s);
        return Tensor.wrap(t.engine(), t.backend().slice(t.operand(), st, lengths.clone(), strides.clone()), t.dtype(), Shape.of(out));
    }

    private static void checkCount(String op, String what, int[] values, Shape s) {
        if (values.length != s.rank()) {
            throw new JBurnException(op, "expected " + s.rank() + " " + what + " for shape " + s + ", got " + values.length
                    + ": " + str(values));
        }
    }

    static Tensor putSlice(Tensor t, int[] starts, Tensor update) {
        String op = name(ShapeOp.PUT_SLICE);
        Tensor[] on = CommonEngine.of(op, t, update);
        t = on[0];
        update = on[1];
        Shape s = t.shape();
        Shape u = update.shape();
        checkCount(op, "start indices", starts, s);
        if (u.rank() != s.rank()) {
            throw new JBurnException(op, "expected the slice rank to match the tensor rank, got slice shape " + u
                    + " for tensor shape " + s);
        }
        int[] st = new int[s.rank()];
        for (int i = 0; i < st.length; i++) {
            if (u.dim(i) > s.dim(i)) {
                throw new JBurnException(op, "slice shape " + u + " does not fit tensor shape " + s + " at axis " + i);
            }
            st[i] = Math.clamp(starts[i], 0, s.dim(i) - u.dim(i));
        }
        DType type = DType.merge(t.dtype(), update.dtype());
        try (Tensor tc = t.asType(type); Tensor uc = update.asType(type)) {
            if (u.size() == 0) return tc.reshape(s);
            return Tensor.wrap(t.engine(), t.backend().putSlice(tc.operand(), st, uc.operand()), type, s);
        }
    }

    // ---- concatenate, stack -----------------------------------------------------------------------

    static Tensor concatenate(List<Tensor> ts, int axis) {
        return concatenate(name(ShapeOp.CONCATENATE), ts, axis);
    }

    private static Tensor concatenate(String op, List<Tensor> ts, int axis) {
        if (ts.isEmpty()) throw new JBurnException(op, "no tensors were given to concatenate");
        ts = CommonEngine.of(op, ts);
        Tensor first = ts.getFirst();
        Shape s0 = first.shape();
        int ax = s0.normalizeAxis(op, axis);
        DType type = first.dtype();
        long total = 0;
        for (Tensor t : ts) {
            Shape s = t.shape();
            boolean match = s.rank() == s0.rank();
            for (int i = 0; match && i < s.rank(); i++) match = i == ax || s.dim(i) == s0.dim(i);
            if (!match) {
                StringBuilder want = new StringBuilder("[");
                for (int i = 0; i < s0.rank(); i++) want.append(i == 0 ? "" : ", ").append(i == ax ? "*" : String.valueOf(s0.dim(i)));
                throw new JBurnException(op, "expected all shapes to match " + want + "], got unmatching shape: " + s);
            }
            total += s.dim(ax);
            type = DType.merge(type, t.dtype());
        }
        if (ts.size() == 1) return first.asType(type);
        if (total > Integer.MAX_VALUE) throw new JBurnException(op, "axis " + ax + " would hold " + total + " elements");
        Shape out = s0.withDim(ax, (int) total);
        List<Tensor> cast = new ArrayList<>();
        try {
            for (Tensor t : ts) cast.add(t.asType(type));
            return Tensor.wrap(first.engine(), first.backend().concatenate(cast.stream().map(Tensor::operand).toList(), ax), type, out);
        } finally {
            for (Tensor c : cast) c.close();
        }
    }

    static Tensor stack(List<Tensor> ts, int axis) {
        String op = name(ShapeOp.STACK);
        if (ts.isEmpty()) throw new JBurnException(op, "no tensors were given to stack");
        Shape s0 = ts.getFirst().shape();
        for (Tensor t : ts) {
            if (!t.shape().equals(s0)) {
                throw new JBurnException(op, "can only stack tensors of the same shape, got distinct shapes: "
                        + ts.stream().map(x -> x.shape().toString()).distinct().toList());
            }
        }
        int r = s0.rank();
        if (axis < -r - 1 || axis > r) {
            throw new JBurnException(op, "given axis (" + axis + ") invalid for stacking tensors of shape " + s0
                    + ", expected " + (-r - 1) + " to " + r);
        }
        int a = axis < 0 ? axis + r + 1 : axis;
        List<Tensor> expanded = new ArrayList<>();
        try {
            for (Tensor t : ts) expanded.add(newAxis(t, a));
            return concatenate(op, expanded, a);
        } finally {
            for (Tensor e : expanded) e.close();
        }
    }

    // ---- pad, reverse, tile -------------------------------------------------------------------------

    static Tensor pad(Tensor t, long value, int[][] config) {
        DType type = DType.mergeScalar(t.dtype(), value);
        try (Tensor v = scalarOn(t.engine(), type, value)) {
            return padChecked(t, v, type, config);
        }
    }

    static Tensor pad(Tensor t, double value, int[][] config) {
        DType type = DType.mergeScalar(t.dtype(), value);
        try (Tensor v = scalarOn(t.engine(), type, value)) {
            return padChecked(t, v, type, config);
        }
    }

    static Tensor pad(Tensor t, Tensor value, int[][] config) {
        String op = name(ShapeOp.PAD);
        Tensor[] on = CommonEngine.of(op, t, value);
        t = on[0];
        value = on[1];
        if (value.rank() != 0) throw new JBurnException(op, "padding value must be a scalar, got shape " + value.shape());
        DType type = DType.merge(t.dtype(), value.dtype());
        try (Tensor v = value.asType(type)) {
            return padChecked(t, v, type, config);
        }
    }

    private static Tensor padChecked(Tensor t, Tensor value, DType type, int[][] config) {
        String op = name(ShapeOp.PAD);
        Shape s = t.shape();
        if (config.length != s.rank()) {
            throw new JBurnException(op, "invalid padding configuration, rank of padding configuration and shape must match"
                    + " (got " + config.length + " entries for shape " + s + ")");
        }
        int r = s.rank();
        int[] lo = new int[r], hi = new int[r], interior = new int[r], out = new int[r];
        boolean identity = true;
        for (int i = 0; i < r; i++) {
            if (config[i] == null || config[i].length != 3) {
                throw new JBurnException(op, "invalid padding configuration, axis " + i + " needs {lo, hi, interior}, got "
                        + (config[i] == null ? "null" : str(config[i])));
            }
            lo[i] = config[i][0];
            hi[i] = config[i][1];
            interior[i] = config[i][2];
            if (interior[i] < 0) {
                throw new JBurnException(op, "invalid padding configuration, interior padding must be non-negative, got "
                        + interior[i] + " at axis " + i);
            }
            int n = s.dim(i);
            long size = (long) lo[i] + hi[i] + n + (long) Math.max(n - 1, 0) * interior[i];
            if (size < 0 || size > Integer.MAX_VALUE) {
                throw new JBurnException(op, "invalid padding configuration, padding " + str(config[i]) + " at axis " + i
                        + " of shape " + s + " gives size " + size);
            }
            out[i] = (int) size;
            identity &= lo[i] == 0 && hi[i] == 0 && (interior[i] == 0 || n <= 1);
        }
        try (Tensor tc = t.asType(type)) {
            if (identity) return tc.reshape(s);
            return Tensor.wrap(t.engine(), t.backend().pad(tc.operand(), value.operand(), lo, hi, interior), type, Shape.of(out));
        }
    }

    static Tensor reverse(Tensor t) { return reverse(t, t.shape().allAxes()); }

    static Tensor reverse(Tensor t, int[] axes) {
        int[] a = t.shape().normalizeAxes(name(ShapeOp.REVERSE), axes);
        int[] nontrivial = Arrays.stream(a).filter(ax -> t.shape().dim(ax) > 1).sorted().toArray();
        if (nontrivial.length == 0) return t.reshape(t.shape());
        return Tensor.wrap(t.engine(), t.backend().reverse(t.operand(), nontrivial), t.dtype(), t.shape());
    }

    /** Nx tile: reps shorter than the rank are left-padded with 1s; a longer reps left-pads the shape with 1s. */
    static Tensor tile(Tensor t, int[] reps) {
        String op = name(ShapeOp.TILE);
        for (int rep : reps) {
            if (rep < 0) throw new JBurnException(op, "reps must be non-negative integers, got " + str(reps));
        }
        int r = Math.max(reps.length, t.rank());
        int[] dims = new int[r];
        int[] rp = new int[r];
        Arrays.fill(dims, 1);
        Arrays.fill(rp, 1);
        System.arraycopy(t.shape().dims(), 0, dims, r - t.rank(), t.rank());
        System.arraycopy(reps, 0, rp, r - reps.length, reps.length);
        // [d0, d1, ...] broadcast into [rep0, d0, rep1, d1, ...], then merged pairwise.
        int[] wide = new int[2 * r];
        int[] axes = new int[r];
        int[] out = new int[r];
        for (int i = 0; i < r; i++) {
            wide[2 * i] = rp[i];
            wide[2 * i + 1] = dims[i];
            axes[i] = 2 * i + 1;
            long size = (long) rp[i] * dims[i];
            if (size > Integer.MAX_VALUE) {
                throw new JBurnException("tile", "tiling " + t.shape() + " by " + java.util.Arrays.toString(reps)
                        + " gives an axis of " + size + " elements, more than an axis can hold");
            }
            out[i] = (int) size;
        }
        try (Tensor shaped = t.reshape(Shape.of(dims)); Tensor b = broadcastChecked(shaped, Shape.of(wide), axes)) {
            return b.reshape(Shape.of(out));
        }
    }
}
