package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Movement ops that cut, pad and join: {@code slice} (clamped starts, strides), {@code putSlice},
 * {@code pad} (negative lo/hi crop, interior padding, the three kinds of pad value),
 * {@code concatenate} and {@code stack} (type promotion across the parts) match the oracle and
 * their index rules. Laws: slicing a pad, a put slice or a concatenation gives the original
 * pieces back; stacking is concatenating new axes. Bad arguments name the op the user called.
 */
public interface SliceJoinContract extends EngineContract {

    /** A tensor, per-axis starts, lengths and strides ({@code null}: the form without strides). */
    record SliceCase(TensorCase x, int[] starts, int[] lengths, int[] strides) {
        @Override
        public String toString() {
            return x + " slice from " + Arrays.toString(starts) + " lengths " + Arrays.toString(lengths)
                    + (strides == null ? "" : " strides " + Arrays.toString(strides));
        }
    }

    /** A tensor, where to put the update, and the update. */
    record PutSliceCase(TensorCase x, int[] starts, TensorCase update) {
        @Override
        public String toString() { return x + " putSlice at " + Arrays.toString(starts) + " of " + update; }
    }

    /** A tensor, {lo, hi, interior} per axis, and the pad value: a {@code Long}, a {@code Double} or a scalar {@link TensorCase}. */
    record PadCase(TensorCase x, int[][] config, Object value) {
        @Override
        public String toString() {
            return x + " pad with " + value + (value instanceof TensorCase ? "" : " (" + value.getClass().getSimpleName() + ")")
                    + " config " + Arrays.deepToString(config);
        }
    }

    /** Tensors to join along an axis. */
    record JoinCase(List<TensorCase> parts, int axis) {
        @Override
        public String toString() { return parts + " along axis " + axis; }
    }

    @Test
    @Covers("slice")
    default void sliceMatchesTheOracleAndTheIndexRule() {
        Props.forAll(sliceCases(), c -> {
            Oracle.check(engine(), c.toString(), c.x(), Tolerance.EXACT, t -> slice(t, c));
            Shape s = c.x().shape();
            int r = s.rank();
            int[] start = new int[r], step = new int[r], out = new int[r];
            for (int i = 0; i < r; i++) {
                step[i] = c.strides() == null ? 1 : c.strides()[i];
                start[i] = Math.clamp(c.starts()[i], 0, s.dim(i) - c.lengths()[i]);
                out[i] = (c.lengths()[i] + step[i] - 1) / step[i];
            }
            TensorCase spec = Specs.pick(c.x(), Shape.of(out), idx -> {
                int[] src = new int[r];
                for (int i = 0; i < r; i++) src[i] = start[i] + idx[i] * step[i];
                return Specs.flat(s, src);
            });
            TensorAssert.assertSame(c + ": out[i] = x[clamped start + i * stride]", spec, slice(c.x().on(engine()), c));
        });
    }

    @Test
    @Covers("putSlice")
    default void putSliceMatchesTheOracleAndTheIndexRule() {
        Props.forAll(putSliceCases(), c -> {
            Oracle.check(engine(), c, Tolerance.EXACT, List.of(c.x(), c.update()), in -> List.of(in.get(0).putSlice(c.starts(), in.get(1))));
            DType t = DType.merge(c.x().dtype(), c.update().dtype());
            TensorCase x = Specs.cast(c.x(), t), u = Specs.cast(c.update(), t);
            int[] start = clampedStarts(c);
            List<TensorCase> both = List.of(x, u);
            TensorCase spec = pickFrom(both, x.shape(), idx -> {
                int[] src = new int[idx.length];
                for (int i = 0; i < idx.length; i++) {
                    src[i] = idx[i] - start[i];
                    if (src[i] < 0 || src[i] >= u.shape().dim(i)) return new long[] {0, Specs.flat(x.shape(), idx)};
                }
                return new long[] {1, Specs.flat(u.shape(), src)};
            });
            TensorAssert.assertSame(c + ": the update inside, x elsewhere", spec, c.x().on(engine()).putSlice(c.starts(), c.update().on(engine())));
        });
    }

    @Test
    @Covers({"putSlice", "slice"})
    default void slicingAPutSliceGivesTheUpdateBack() {
        Props.forAll(putSliceCases(), c -> {
            Shape u = c.update().shape();
            for (int i = 0; i < u.rank(); i++) if (u.dim(i) == 0 && c.x().shape().dim(i) > 0) return; // no such slice
            Tensor put = c.x().on(engine()).putSlice(c.starts(), c.update().on(engine()));
            TensorAssert.assertSame(c + ": slice at the clamped starts", Specs.cast(c.update(), put.dtype()),
                    put.slice(clampedStarts(c), u.dims()));
        });
    }

    @Test
    @Covers("pad")
    default void padMatchesTheOracleAndTheIndexRule() {
        Props.forAll(padCases(), c -> {
            List<TensorCase> inputs = c.value() instanceof TensorCase v ? List.of(c.x(), v) : List.of(c.x());
            Oracle.check(engine(), c, Tolerance.EXACT, inputs, in -> List.of(pad(in, c)));
            DType t = switch (c.value()) {
                case Long v -> DType.mergeScalar(c.x().dtype(), v.longValue());
                case Double v -> DType.mergeScalar(c.x().dtype(), v.doubleValue());
                case TensorCase v -> DType.merge(c.x().dtype(), v.dtype());
                default -> throw new IllegalArgumentException("pad value " + c.value());
            };
            TensorCase fill = switch (c.value()) {
                case Long v -> Specs.scalar(t, v);
                case Double v -> Specs.cast(TensorCase.ofDoubles(DType.F64, Shape.scalar(), v), t);
                case TensorCase v -> Specs.cast(v, t);
                default -> throw new IllegalArgumentException("pad value " + c.value());
            };
            TensorCase x = Specs.cast(c.x(), t);
            Shape s = x.shape();
            int r = s.rank();
            int[] out = new int[r];
            for (int i = 0; i < r; i++) out[i] = padded(s.dim(i), c.config()[i]);
            TensorCase spec = Specs.pick(x, Shape.of(out), idx -> {
                int[] src = new int[r];
                for (int i = 0; i < r; i++) {
                    int p = idx[i] - c.config()[i][0];
                    int gap = c.config()[i][2] + 1;
                    if (p < 0 || p % gap != 0 || p / gap >= s.dim(i)) return -1;
                    src[i] = p / gap;
                }
                return Specs.flat(s, src);
            }, fill);
            TensorAssert.assertSame(c + ": x at lo + i * (interior + 1), the value elsewhere", spec, pad(inputs.stream().map(v -> v.on(engine())).toList(), c));
        });
    }

    @Test
    @Covers({"pad", "slice"})
    default void slicingAPadGivesTheOriginalBack() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(0, 4, false, 60), Elements.Mix.ALL);
        Gen<PadCase> cases = rs -> {
            TensorCase x = xs.generate(rs);
            int[][] config = new int[x.shape().rank()][];
            for (int i = 0; i < config.length; i++) config[i] = new int[] {Axes.between(rs, 0, 3), Axes.between(rs, 0, 3), Axes.between(rs, 0, 2)};
            TensorCase value = Generators.values(x.dtype(), Shape.scalar(), Elements.Mix.ALL).generate(rs);
            return new PadCase(x, config, value);
        };
        Props.forAll(cases, c -> {
            int r = c.x().shape().rank();
            int[] starts = new int[r], lengths = new int[r], strides = new int[r];
            for (int i = 0; i < r; i++) {
                int n = c.x().shape().dim(i);
                starts[i] = c.config()[i][0];
                lengths[i] = n + (n - 1) * c.config()[i][2];
                strides[i] = c.config()[i][2] + 1;
            }
            Tensor padded = c.x().on(engine()).pad(((TensorCase) c.value()).on(engine()), c.config());
            TensorAssert.assertSame(c + ", sliced from " + Arrays.toString(starts) + " lengths " + Arrays.toString(lengths)
                    + " strides " + Arrays.toString(strides), c.x(), padded.slice(starts, lengths, strides));
        });
    }

    @Test
    @Covers("concatenate")
    default void concatenateMatchesTheOracleAndTheIndexRule() {
        Props.forAll(joinCases(false), c -> {
            Oracle.check(engine(), c, Tolerance.EXACT, c.parts(), in -> List.of(concatenate(in, c.axis())));
            DType t = mergedType(c.parts());
            int a = c.axis() < 0 ? c.axis() + c.parts().getFirst().shape().rank() : c.axis();
            List<TensorCase> parts = c.parts().stream().map(p -> Specs.cast(p, t)).toList();
            int total = parts.stream().mapToInt(p -> p.shape().dim(a)).sum();
            Shape out = parts.getFirst().shape().withDim(a, total);
            TensorCase spec = pickFrom(parts, out, idx -> {
                int[] src = idx.clone();
                int k = 0;
                while (src[a] >= parts.get(k).shape().dim(a)) src[a] -= parts.get(k++).shape().dim(a);
                return new long[] {k, Specs.flat(parts.get(k).shape(), src)};
            });
            TensorAssert.assertSame(c + ": the parts one after the other", spec,
                    concatenate(c.parts().stream().map(p -> p.on(engine())).toList(), c.axis()));
        });
    }

    @Test
    @Covers({"concatenate", "slice"})
    default void slicingAConcatenationGivesThePartsBack() {
        Props.forAll(joinCases(false), c -> {
            Tensor joined = concatenate(c.parts().stream().map(p -> p.on(engine())).toList(), c.axis());
            int r = joined.rank();
            int a = c.axis() < 0 ? c.axis() + r : c.axis();
            int offset = 0;
            for (TensorCase p : c.parts()) {
                int n = p.shape().dim(a);
                if (n > 0 || joined.shape().dim(a) == 0) {
                    int[] starts = new int[r];
                    starts[a] = offset;
                    TensorAssert.assertSame(c + ": the part at " + offset, Specs.cast(p, joined.dtype()), joined.slice(starts, p.shape().dims()));
                }
                offset += n;
            }
        });
    }

    @Test
    @Covers("stack")
    default void stackMatchesTheOracle() {
        Props.forAll(joinCases(true), c -> Oracle.check(engine(), c, Tolerance.EXACT, c.parts(), in -> List.of(stack(in, c.axis()))));
    }

    @Test
    @Covers({"stack", "newAxis", "concatenate"})
    default void stackingIsConcatenatingNewAxes() {
        Props.forAll(joinCases(true), c -> {
            List<Tensor> parts = c.parts().stream().map(p -> p.on(engine())).toList();
            Tensor expected = Tensor.concatenate(parts.stream().map(p -> p.newAxis(c.axis())).toList(), c.axis());
            TensorAssert.assertClose(c + ": concatenate of newAxis(" + c.axis() + ")", expected, stack(parts, c.axis()), Tolerance.EXACT);
        });
    }

    @Test
    @Covers({"slice", "putSlice", "pad", "concatenate", "stack"})
    default void sliceAndJoinOpsNameThemselvesForBadArguments() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(1, 3, false, 24), Elements.Mix.SMALL);
        Props.forAll(xs, x -> {
            Shape s = x.shape();
            int r = s.rank();
            String shape = s.toString();
            List<TensorCase> in = List.of(x);
            int[] zeros = new int[r], dims = s.dims(), ones = new int[r];
            Arrays.fill(ones, 1);
            int[] tooLong = dims.clone();
            tooLong[r - 1]++;
            Oracle.checkFails(engine(), x + " slice lengths " + Arrays.toString(tooLong), in, "slice",
                    t -> t.get(0).slice(zeros, tooLong), "length at axis " + (r - 1), shape);
            Oracle.checkFails(engine(), x + " slice with " + (r - 1) + " lengths", in, "slice",
                    t -> t.get(0).slice(zeros, Arrays.copyOf(dims, r - 1)), shape);
            int[] zeroStride = ones.clone();
            zeroStride[0] = 0;
            Oracle.checkFails(engine(), x + " slice strides " + Arrays.toString(zeroStride), in, "slice",
                    t -> t.get(0).slice(zeros, dims, zeroStride), "stride");

            TensorCase bigger = Specs.zeros(x.dtype(), Shape.of(tooLong));
            Oracle.checkFails(engine(), x + " putSlice of " + bigger, List.of(x, bigger), "putSlice",
                    t -> t.get(0).putSlice(zeros, t.get(1)), shape, bigger.shape().toString());
            TensorCase otherRank = Specs.zeros(x.dtype(), Shape.of(Arrays.copyOf(ones, r + 1)));
            Oracle.checkFails(engine(), x + " putSlice of " + otherRank, List.of(x, otherRank), "putSlice",
                    t -> t.get(0).putSlice(zeros, t.get(1)), shape, otherRank.shape().toString());

            int[][] extra = new int[r + 1][];
            Arrays.fill(extra, new int[] {0, 0, 0});
            Oracle.checkFails(engine(), x + " pad config " + Arrays.deepToString(extra), in, "pad", t -> t.get(0).pad(0L, extra), shape);
            int[][] interior = new int[r][];
            Arrays.fill(interior, new int[] {0, 0, 0});
            interior[0] = new int[] {0, 0, -1};
            Oracle.checkFails(engine(), x + " pad config " + Arrays.deepToString(interior), in, "pad", t -> t.get(0).pad(0L, interior), "-1");
            int[][] crop = interior.clone();
            crop[0] = new int[] {-dims[0] - 1, 0, 0};
            Oracle.checkFails(engine(), x + " pad config " + Arrays.deepToString(crop), in, "pad", t -> t.get(0).pad(1.5, crop), shape);

            TensorCase misfit = Specs.zeros(x.dtype(), r == 1 ? Shape.of(dims[0], 1) : s.withDim(0, dims[0] + 1));
            Oracle.checkFails(engine(), x + " concatenate " + misfit + " along " + (r - 1), List.of(x, misfit), "concatenate",
                    t -> Tensor.concatenate(t, r - 1), misfit.shape().toString());
            Oracle.checkFails(engine(), "concatenate of no tensors", List.of(), "concatenate", t -> Tensor.concatenate(t, 0));
            Oracle.checkFails(engine(), x + " concatenated along " + r, List.of(x, x), "concatenate",
                    t -> Tensor.concatenate(t, r), "(" + r + ")", shape);
            Oracle.checkFails(engine(), x + " stack " + misfit, List.of(x, misfit), "stack", t -> Tensor.stack(t, 0), misfit.shape().toString());
            Oracle.checkFails(engine(), "stack of no tensors", List.of(), "stack", t -> Tensor.stack(t, 0));
            Oracle.checkFails(engine(), x + " stacked along " + (r + 2), List.of(x, x), "stack", t -> Tensor.stack(t, r + 2), "(" + (r + 2) + ")");

            if (engine() != Oracle.engine()) {
                Tensor here = x.on(engine()), there = x.on(Oracle.engine());
                Oracle.assertFailsNaming("concatenate", x + " with a tensor of another engine", () -> Tensor.concatenate(0, here, there));
                Oracle.assertFailsNaming("putSlice", x + " with an update on another engine", () -> here.putSlice(zeros, there));
                Tensor value = Specs.zeros(x.dtype(), Shape.scalar()).on(Oracle.engine());
                Oracle.assertFailsNaming("pad", x + " with a pad value on another engine", () -> here.pad(value, padNothing(r)));
            }
        });
    }

    // ---- generators and calls -----------------------------------------------------------------

    /** Per axis: a length of 1 to the size (0 on an empty axis), a start from 3 below 0 to 3 past the end, strides 1 to 3 (or none, 1 in 3). */
    private static Gen<SliceCase> sliceCases() {
        Gen<TensorCase> xs = Generators.tensors();
        return rs -> {
            TensorCase x = xs.generate(rs);
            int r = x.shape().rank();
            int[] starts = new int[r], lengths = new int[r], strides = new int[r];
            for (int i = 0; i < r; i++) {
                int d = x.shape().dim(i);
                lengths[i] = d == 0 ? 0 : Axes.between(rs, 1, d);
                starts[i] = Axes.between(rs, -3, d + 3);
                strides[i] = Axes.between(rs, 1, 3);
            }
            return new SliceCase(x, starts, lengths, Axes.oneIn(rs, 3) ? null : strides);
        };
    }

    /** An update no larger than the tensor on any axis (of the same dtype 2 in 3), starts that may need clamping. */
    private static Gen<PutSliceCase> putSliceCases() {
        Gen<TensorCase> xs = Generators.tensors();
        return rs -> {
            TensorCase x = xs.generate(rs);
            int r = x.shape().rank();
            int[] starts = new int[r], dims = new int[r];
            for (int i = 0; i < r; i++) {
                int d = x.shape().dim(i);
                dims[i] = Axes.oneIn(rs, 8) ? Axes.between(rs, 0, d) : Axes.between(rs, Math.min(1, d), d);
                starts[i] = Axes.between(rs, -3, d + 3);
            }
            DType t = Axes.oneIn(rs, 3) ? Generators.dtypes().generate(rs) : x.dtype();
            return new PutSliceCase(x, starts, Generators.values(t, Shape.of(dims), Elements.Mix.ALL).generate(rs));
        };
    }

    /** Small tensors; lo and hi from -2 to 3 (never a negative size), interior 0 to 2; a Long, Double or scalar tensor value. */
    private static Gen<PadCase> padCases() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.upTo(60), Elements.Mix.ALL);
        return rs -> {
            TensorCase x = xs.generate(rs);
            int[][] config = new int[x.shape().rank()][];
            for (int i = 0; i < config.length; i++) {
                int[] cfg = {Axes.between(rs, -2, 3), Axes.between(rs, -2, 3), Axes.between(rs, 0, 2)};
                if (padded(x.shape().dim(i), cfg) < 0) cfg[0] = cfg[1] = 0;
                config[i] = cfg;
            }
            Object value = switch (Axes.between(rs, 0, 2)) {
                case 0 -> (long) Axes.between(rs, -300, 300);
                case 1 -> Elements.floats(DType.F64, Elements.Mix.ALL).generate(rs);
                default -> Generators.values(Generators.dtypes().generate(rs), Shape.scalar(), Elements.Mix.ALL).generate(rs);
            };
            return new PadCase(x, config, value);
        };
    }

    /**
     * 1 to 4 parts along an axis (negative too). {@code stack}: equal shapes of rank 0 to 3 and an axis in
     * {@code [-rank-1, rank]}; else rank 1 to 4 with the axis size of each part 0 to 5. One dtype, or a dtype
     * per part 1 in 4.
     */
    private static Gen<JoinCase> joinCases(boolean stack) {
        Gen<Shape> shapes = stack ? Shapes.ofRank(0, 3, true, 40) : Shapes.ofRank(1, 4, true, 40);
        return rs -> {
            Shape s = shapes.generate(rs);
            int r = s.rank();
            int axis = stack ? Axes.between(rs, -r - 1, r) : Axes.one(r).generate(rs);
            int a = axis < 0 ? axis + r : axis;
            DType t = Generators.dtypes().generate(rs);
            boolean mixed = Axes.oneIn(rs, 4);
            List<TensorCase> parts = new ArrayList<>();
            for (int k = Axes.between(rs, 1, 4); k > 0; k--) {
                Shape p = stack ? s : s.withDim(a, Axes.oneIn(rs, 6) ? 0 : Axes.between(rs, 1, 5));
                parts.add(Generators.values(mixed ? Generators.dtypes().generate(rs) : t, p, Elements.Mix.ALL).generate(rs));
            }
            return new JoinCase(parts, axis);
        };
    }

    private static Tensor slice(Tensor t, SliceCase c) {
        return c.strides() == null ? t.slice(c.starts(), c.lengths()) : t.slice(c.starts(), c.lengths(), c.strides());
    }

    /** {@code pad} with the case's value: the long, double or tensor (the last input) overload. */
    private static Tensor pad(List<Tensor> in, PadCase c) {
        return switch (c.value()) {
            case Long v -> in.get(0).pad(v.longValue(), c.config());
            case Double v -> in.get(0).pad(v.doubleValue(), c.config());
            case TensorCase v -> in.get(0).pad(in.get(1), c.config());
            default -> throw new IllegalArgumentException("pad value " + c.value());
        };
    }

    /** The list overload for two parts or more, the varargs one for a single part. */
    private static Tensor concatenate(List<Tensor> parts, int axis) {
        return parts.size() == 1 ? Tensor.concatenate(axis, parts.getFirst()) : Tensor.concatenate(parts, axis);
    }

    private static Tensor stack(List<Tensor> parts, int axis) {
        return parts.size() == 1 ? Tensor.stack(axis, parts.getFirst()) : Tensor.stack(parts, axis);
    }

    private static int[][] padNothing(int rank) {
        int[][] cfg = new int[rank][];
        Arrays.fill(cfg, new int[] {0, 0, 0});
        return cfg;
    }

    private static int padded(int n, int[] cfg) {
        return cfg[0] + cfg[1] + n + Math.max(n - 1, 0) * cfg[2];
    }

    private static int[] clampedStarts(PutSliceCase c) {
        int[] s = new int[c.starts().length];
        for (int i = 0; i < s.length; i++) s[i] = Math.clamp(c.starts()[i], 0, c.x().shape().dim(i) - c.update().shape().dim(i));
        return s;
    }

    private static DType mergedType(List<TensorCase> parts) {
        DType t = parts.getFirst().dtype();
        for (TensorCase p : parts) t = DType.merge(t, p.dtype());
        return t;
    }

    /** Like {@link Specs#pick}, from several sources of one dtype: {@code src} gives {source, flat index}. */
    private static TensorCase pickFrom(List<TensorCase> sources, Shape out, java.util.function.Function<int[], long[]> src) {
        int n = Math.toIntExact(out.size());
        DType t = sources.getFirst().dtype();
        double[] d = new double[t.isFloat() ? n : 0];
        long[] l = new long[t.isFloat() ? 0 : n];
        for (int i = 0; i < n; i++) {
            long[] at = src.apply(TensorAssert.index(out, i));
            TensorCase s = sources.get((int) at[0]);
            if (t.isFloat()) d[i] = s.doubleAt((int) at[1]);
            else l[i] = s.longAt((int) at[1]);
        }
        return t.isFloat() ? TensorCase.ofDoubles(t, out, d) : TensorCase.ofLongs(t, out, l);
    }
}
