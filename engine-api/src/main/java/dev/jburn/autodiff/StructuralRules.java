package dev.jburn.autodiff;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.Prim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Backward rules of reductions, scans, movement, indexing and {@code dot}. */
final class StructuralRules {
    private StructuralRules() {}

    /** {@code g} (reduced shape) spread back over {@code x}'s shape along the reduced {@code axes}. */
    private static Tensor expand(Tensor g, Shape xShape, int[] axes) {
        int[] kept = new int[xShape.rank() - axes.length];
        for (int i = 0, k = 0; i < xShape.rank(); i++) if (Arrays.binarySearch(axes, i) < 0) kept[k++] = i;
        return g.broadcast(xShape, kept);
    }

    static Tensor reduce(Prim.Reduce r, Tensor x, Tensor y, Tensor g) {
        if (!x.dtype().isFloat()) return null;
        int[] axes = r.axes();
        return switch (r.op()) {
            case SUM -> expand(g, x.shape(), axes);
            case PRODUCT -> product(x, g, axes);
            case REDUCE_MAX, REDUCE_MIN -> {
                // ties split the gradient evenly
                Tensor hit = x.equal(expand(y, x.shape(), axes)).asType(x.dtype());
                Tensor count = hit.sum(axes);
                yield expand(g.divide(count), x.shape(), axes).multiply(hit);
            }
            case ALL, ANY, ARGMAX, ARGMIN -> null;
            case MEAN, LOG_SUM_EXP -> throw new JBurnException("grad", "internal: " + r.op() + " is a composite, not a backend reduction");
        };
    }

    static Tensor cumulative(Prim.Cumulative c, Tensor x, Tensor y, Tensor g) {
        if (!x.dtype().isFloat()) return null;
        return switch (c.op()) {
            case CUMULATIVE_SUM -> g.cumulativeSum(c.axis(), !c.reverse());
            case CUMULATIVE_PRODUCT -> c.reverse()
                    ? cumulativeProduct(x.reverse(c.axis()), y.reverse(c.axis()), g.reverse(c.axis()), c.axis()).reverse(c.axis())
                    : cumulativeProduct(x, y, g, c.axis());
            case CUMULATIVE_MAX, CUMULATIVE_MIN -> c.reverse()
                    ? runningExtremum(x.reverse(c.axis()), y.reverse(c.axis()), g.reverse(c.axis()), c.axis()).reverse(c.axis())
                    : runningExtremum(x, y, g, c.axis());
        };
    }

    /**
     * {@code d prod(x) / d x_i} is the product of the other elements: an exclusive prefix product
     * times an exclusive suffix product along the reduced elements (moved last and flattened), so
     * zeros need no division ({@code prod / x_i} is 0/0 at a zero; the window-product rule does the same).
     */
    private static Tensor product(Tensor x, Tensor g, int[] axes) {
        if (axes.length == 0) return g.reshape(x.shape());
        int r = x.rank();
        int[] perm = new int[r];
        int k = 0;
        for (int i = 0; i < r; i++) if (Arrays.binarySearch(axes, i) < 0) perm[k++] = i;
        int kept = k;
        for (int a : axes) perm[k++] = a;
        int[] movedDims = new int[r];
        long n = 1;
        for (int i = 0; i < r; i++) {
            movedDims[i] = x.shape().dim(perm[i]);
            if (i >= kept) n *= movedDims[i];
        }
        int[] flatDims = new int[kept + 1];
        System.arraycopy(movedDims, 0, flatDims, 0, kept);
        flatDims[kept] = Math.toIntExact(n);
        boolean identity = true;
        for (int i = 0; i < r; i++) identity &= perm[i] == i;
        Tensor flat = (identity ? x : x.transpose(perm)).reshape(flatDims);
        int last = kept;
        Tensor before = shift(flat.cumulativeProduct(last), last, 1, 1.0);
        Tensor after = shift(flat.cumulativeProduct(last, true), last, -1, 1.0);
        Tensor others = before.multiply(after).multiply(g.reshape(Arrays.copyOf(flatDims, kept)).newAxis(kept));
        Tensor moved = others.reshape(movedDims);
        return identity ? moved : moved.transpose(BackwardRules.inverse(perm));
    }

    /**
     * {@code y = cumprod(x)} along {@code axis}: {@code x̄_i = E_i · S_i} with {@code E_i = y_{i-1}}
     * (the exclusive prefix product) and {@code S_i = Σ_{j>=i} ḡ_j · x_{i+1} ··· x_j}, the reverse
     * linear recurrence {@code S_i = ḡ_i + x_{i+1}·S_{i+1}}, solved by recursive doubling in
     * ⌈log₂ n⌉ steps (JAX differentiates its associative scan the same way). No division by
     * {@code x}, so zeros get their true cotangent ({@code Σ ḡ_j y_j / x_i} is 0/0 there).
     */
    private static Tensor cumulativeProduct(Tensor x, Tensor y, Tensor g, int axis) {
        int n = x.shape().dim(axis);
        if (n == 0) return g;
        Tensor a = shift(x, axis, -1, 0.0); // a_i = x_{i+1}, 0 past the end
        Tensor s = g;                       // S_i = s_i + a_i · S_{i+d}
        for (int d = 1; d < n; d *= 2) {
            s = s.add(a.multiply(shift(s, axis, -d, 0.0)));
            if (2L * d < n) a = a.multiply(shift(a, axis, -d, 0.0));
        }
        return shift(y, axis, 1, 1.0).multiply(s);
    }

    /** {@code t} moved along {@code axis} by {@code by} places (positive: towards higher indices), filled with {@code fill}. */
    private static Tensor shift(Tensor t, int axis, int by, double fill) {
        int[][] config = new int[t.rank()][];
        for (int i = 0; i < t.rank(); i++) config[i] = new int[] {0, 0, 0};
        config[axis] = new int[] {by, -by, 0};
        return t.pad(fill, config);
    }

    /**
     * The cotangent of a forward running max/min {@code y} of {@code x}: output {@code j} takes its
     * value from the latest "record" {@code i <= j} (an {@code x_i} equal to the running value
     * {@code y_i}; ties go to the latest), so record {@code i} receives the cotangents of the
     * outputs from {@code i} up to the next record: a difference of reverse running sums.
     */
    private static Tensor runningExtremum(Tensor x, Tensor y, Tensor g, int axis) {
        int n = x.shape().dim(axis);
        Tensor record = x.equal(y);
        Tensor iota = Tensor.iota(x.shape(), dev.jburn.DType.S32, axis);
        if (iota.engine() != x.engine()) iota = iota.to(x.engine());
        Tensor candidates = record.select(iota, n);
        // the first record strictly after i: a reverse running min, shifted left by one (n past the end)
        int[][] shiftLeft = new int[x.rank()][];
        int[][] oneMore = new int[x.rank()][];
        for (int i = 0; i < x.rank(); i++) {
            shiftLeft[i] = new int[] {i == axis ? -1 : 0, i == axis ? 1 : 0, 0};
            oneMore[i] = new int[] {0, i == axis ? 1 : 0, 0};
        }
        Tensor next = candidates.cumulativeMin(axis, true).pad(n, shiftLeft);
        Tensor tail = g.cumulativeSum(axis, true).pad(0.0, oneMore); // tail[j] = sum of g from j on; tail[n] = 0
        Tensor run = tail.slice(new int[x.rank()], x.shape().dims()).subtract(tail.takeAlongAxis(next, axis));
        return record.select(run, 0.0);
    }

    /** The cotangent of {@code broadcast(x, outShape, axes)}: sums the new axes and the stretched size-1 axes. */
    static Tensor unbroadcastAxes(Tensor g, Shape xShape, int[] axes) {
        List<Integer> drop = new ArrayList<>();
        boolean[] mapped = new boolean[g.rank()];
        for (int a : axes) mapped[a] = true;
        for (int i = 0; i < g.rank(); i++) if (!mapped[i]) drop.add(i);
        for (int k = 0; k < axes.length; k++) if (xShape.dim(k) == 1 && g.shape().dim(axes[k]) != 1) drop.add(axes[k]);
        if (drop.isEmpty()) return g.reshape(xShape);
        int[] d = drop.stream().mapToInt(Integer::intValue).sorted().toArray();
        return g.sum(d).reshape(xShape);
    }

    static Tensor slice(Prim.Slice s, Shape xShape, Tensor g) {
        int r = xShape.rank();
        int[][] config = new int[r][];
        for (int i = 0; i < r; i++) {
            int n = g.shape().dim(i), st = s.strides()[i], start = s.starts()[i];
            int covered = n == 0 ? 0 : (n - 1) * st + 1;
            config[i] = new int[] {start, xShape.dim(i) - start - covered, n == 0 ? 0 : st - 1};
        }
        return g.pad(0.0, config);
    }

    static List<Tensor> pad(Prim.Pad p, Tensor x, Tensor g) {
        if (!x.dtype().isFloat()) return BackwardRules.none(2);
        int r = x.rank();
        int[][] unpad = new int[r][], config = new int[r][];
        int[] starts = new int[r], lengths = new int[r], strides = new int[r];
        for (int i = 0; i < r; i++) {
            unpad[i] = new int[] {-p.lo()[i], -p.hi()[i], 0};
            config[i] = new int[] {p.lo()[i], p.hi()[i], p.interior()[i]};
            int n = x.shape().dim(i);
            lengths[i] = n == 0 ? 0 : n + (n - 1) * p.interior()[i];
            strides[i] = p.interior()[i] + 1;
        }
        Tensor gx = g.pad(0.0, unpad).slice(starts, lengths, strides);
        // the pad value's cotangent sums g where the pad value landed (sum(g) - sum(gx) would cancel, and give Inf - Inf = NaN)
        Tensor landed = BackwardRules.zeros(x, x.shape()).pad(1.0, config).notEqual(0.0);
        Tensor gPad = landed.select(g, 0.0).sum();
        return Arrays.asList(gx, gPad);
    }

    static List<Tensor> concatenate(int axis, List<Tensor> parts, Tensor g) {
        List<Tensor> out = new ArrayList<>(parts.size());
        int offset = 0;
        for (Tensor p : parts) {
            int[] starts = new int[g.rank()];
            starts[axis] = offset;
            out.add(g.slice(starts, p.shape().dims()));
            offset += p.shape().dim(axis);
        }
        return out;
    }

    /** Scatter-add of {@code g} (shape {@code indices[:-1] ++ rest}) into zeros of {@code x}'s shape. */
    static Tensor gather(int[] axes, Tensor x, Tensor indices, Tensor g) {
        if (!x.dtype().isFloat()) return null;
        int k = indices.shape().dim(-1);
        long n = sizeWithout(indices.shape());
        int rest = g.rank() - (indices.rank() - 1);
        int[] upd = new int[1 + rest];
        upd[0] = Math.toIntExact(n);
        for (int i = 0; i < rest; i++) upd[1 + i] = g.shape().dim(indices.rank() - 1 + i);
        Tensor flatIdx = indices.reshape(Shape.of(Math.toIntExact(n), k));
        return BackwardRules.zeros(x, x.shape()).indexedAdd(flatIdx, g.reshape(Shape.of(upd)), axes);
    }

    private static long sizeWithout(Shape s) {
        long n = 1;
        for (int i = 0; i < s.rank() - 1; i++) n *= s.dim(i);
        return n;
    }

    static List<Tensor> indexedUpdate(Prim.IndexedUpdate u, List<Tensor> in, Tensor g) {
        Tensor target = in.get(0), indices = in.get(1), updates = in.get(2);
        if (!target.dtype().isFloat()) return BackwardRules.none(3);
        Tensor gUpdates = g.gather(indices, u.axes()).reshape(updates.shape());
        Tensor gTarget = u.accumulate() ? g : g.indexedPut(indices, BackwardRules.zeros(updates, updates.shape()), u.axes());
        return Arrays.asList(gTarget, null, gUpdates);
    }

    /** Cotangents of {@code a, b} for a general dot (output: batch, a's free axes, b's free axes). */
    static List<Tensor> dot(Prim.Dot d, Tensor a, Tensor b, Tensor g) {
        if (!a.dtype().isFloat()) return BackwardRules.none(2);
        int nb = d.batchA().length;
        int[] freeA = free(a.rank(), d.contractA(), d.batchA());
        int[] freeB = free(b.rank(), d.contractB(), d.batchB());
        int[] gBatch = range(0, nb);
        int[] gFreeA = range(nb, nb + freeA.length);
        int[] gFreeB = range(nb + freeA.length, nb + freeA.length + freeB.length);
        Tensor ga = contractBack(g, gFreeB, gBatch, b, freeB, d.batchB(), d.contractB(), d.contractA(), d.batchA(), freeA, a.rank());
        Tensor gb = contractBack(g, gFreeA, gBatch, a, freeA, d.batchA(), d.contractA(), d.contractB(), d.batchB(), freeB, b.rank());
        return Arrays.asList(ga, gb);
    }

    /**
     * {@code g · other} contracting {@code g}'s {@code gContract} axes with {@code other}'s free axes,
     * transposed into the layout of the operand being differentiated ({@code rank} axes, whose
     * batch axes are {@code selfBatch}, free axes {@code selfFree}, and whose contracted axes pair
     * with {@code other}'s {@code otherContract} as {@code selfContract}). When {@code other · g} is
     * already in that layout and {@code g · other} is not (a dense layer's weight gradient
     * {@code xᵀ · g}: {@code g · x} would be its transpose), the product is taken in that order and
     * no transpose runs (in the CNN's step that transpose of a [128, 1600] product took 450 µs).
     */
    private static Tensor contractBack(Tensor g, int[] gContract, int[] gBatch, Tensor other, int[] otherFree, int[] otherBatch,
                                       int[] otherContract, int[] selfContract, int[] selfBatch, int[] selfFree, int rank) {
        int[] perm = layout(false, otherContract, selfContract, selfBatch, selfFree, rank);
        if (!isIdentity(perm) && isIdentity(layout(true, otherContract, selfContract, selfBatch, selfFree, rank))) {
            return other.dot(otherFree, otherBatch, g, gContract, gBatch);
        }
        Tensor r = g.dot(gContract, gBatch, other, otherFree, otherBatch);
        return isIdentity(perm) ? r : r.transpose(perm);
    }

    /**
     * The permutation from the product's axes to the differentiated operand's: the product's axes are the batch axes,
     * then {@code g}'s remaining axes (the operand's free axes) and {@code other}'s remaining ones (its contracted axes,
     * ascending), or those two groups the other way round ({@code otherFirst}).
     */
    private static int[] layout(boolean otherFirst, int[] otherContract, int[] selfContract, int[] selfBatch, int[] selfFree, int rank) {
        int[] rem = otherContract.clone();
        Arrays.sort(rem);
        int[] fromOther = new int[rem.length];
        for (int i = 0; i < rem.length; i++) fromOther[i] = selfContract[indexOf(otherContract, rem[i])];
        int[] src = new int[rank];
        int k = 0;
        for (int ax : selfBatch) src[k++] = ax;
        for (int ax : otherFirst ? fromOther : selfFree) src[k++] = ax;
        for (int ax : otherFirst ? selfFree : fromOther) src[k++] = ax;
        int[] perm = new int[rank];
        for (int pos = 0; pos < rank; pos++) perm[src[pos]] = pos;
        return perm;
    }

    private static boolean isIdentity(int[] perm) {
        for (int i = 0; i < perm.length; i++) if (perm[i] != i) return false;
        return true;
    }

    private static int[] free(int rank, int[] contract, int[] batch) {
        List<Integer> f = new ArrayList<>();
        for (int i = 0; i < rank; i++) if (indexOf(contract, i) < 0 && indexOf(batch, i) < 0) f.add(i);
        return f.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int[] range(int from, int to) {
        int[] r = new int[to - from];
        for (int i = 0; i < r.length; i++) r[i] = from + i;
        return r;
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) if (a[i] == v) return i;
        return -1;
    }
}
