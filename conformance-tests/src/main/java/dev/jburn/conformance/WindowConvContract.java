package dev.jburn.conformance;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.Arrays;
import java.util.List;

/**
 * Window reductions, window scatters and convolutions match the oracle: random shapes (rank 1
 * to 4 for windows, 1-D and 2-D convolutions), windows, strides, dilations and paddings
 * ({@code VALID}, {@code SAME}, explicit; negative for conv), every numeric dtype. Maxima,
 * minima and scatters agree within arithmetic tolerance; sums, products and convolutions add an
 * absolute allowance for the order and width of accumulation. Invalid windows must fail with
 * the oracle's op.
 */
public interface WindowConvContract extends EngineContract {

    /** A tensor and a window over it. */
    record WindowCase(TensorCase x, int[] window, WindowOptions options) {
        @Override
        public String toString() { return x + " window " + Arrays.toString(window) + " " + options; }
    }

    /**
     * An input, a kernel, conv options (canonical layout, or channels last) and an input for
     * convTranspose with as many channels as the kernel has output channels.
     */
    record ConvCase(TensorCase input, TensorCase kernel, TensorCase transposeInput, ConvOptions options) {
        @Override
        public String toString() { return "input " + input + " kernel " + kernel + " " + options; }
    }

    /** A window case and a source for the scatters (of the pooled shape, or of the input's shape when the window is invalid). */
    record ScatterCase(WindowCase window, TensorCase source) {
        @Override
        public String toString() { return window + " source " + source; }
    }

    @Test
    @Covers({"windowMax", "windowMin"})
    default void windowMaxAndMinMatchTheOracle() {
        Props.forAll(windowCases(Generators.numericTypes(), Elements.Mix.ALL), c -> {
            Oracle.check(engine(), c.toString() + " max", c.x(), Tolerance.ARITHMETIC, t -> t.windowMax(c.window(), c.options()));
            Oracle.check(engine(), c.toString() + " min", c.x(), Tolerance.ARITHMETIC, t -> t.windowMin(c.window(), c.options()));
        });
    }

    @Test
    @Covers({"windowSum", "windowProduct"})
    default void windowSumAndProductMatchTheOracle() {
        Props.forAll(windowCases(Generators.numericTypes(), Elements.Mix.SMALL), c -> {
            long size = 1;
            for (int w : c.window()) size *= w;
            // F32 engines may accumulate in F32 where the oracle uses double: allow the rounding of every partial sum.
            Tolerance sum = Tolerance.ARITHMETIC.withAbsolute(size * maxAbs(c.x()) * 1e-6);
            Oracle.check(engine(), c.toString() + " sum", c.x(), sum, t -> t.windowSum(c.window(), c.options()));
            Tolerance product = Tolerance.ARITHMETIC.withAbsolute(Math.pow(Math.max(1, maxAbs(c.x())), size) * size * 1e-6);
            Oracle.check(engine(), c.toString() + " product", c.x(), product, t -> t.windowProduct(c.window(), c.options()));
        });
    }

    @Test
    @Covers({"windowScatterMax", "windowScatterMin"})
    default void windowScattersMatchTheOracle() {
        Props.forAll(scatterCases(), c -> {
            WindowCase w = c.window();
            List<TensorCase> in = List.of(w.x(), c.source());
            Oracle.check(engine(), c + " scatter max", Tolerance.ARITHMETIC, in,
                    t -> List.of(t.get(0).windowScatterMax(t.get(1), 0.5, w.window(), w.options())));
            Oracle.check(engine(), c + " scatter min", Tolerance.ARITHMETIC, in,
                    t -> List.of(t.get(0).windowScatterMin(t.get(1), 0.5, w.window(), w.options())));
        });
    }

    @Test
    @Covers({"conv", "convTranspose"})
    default void convolutionsMatchTheOracle() {
        Props.forAll(convCases(), c -> {
            List<TensorCase> in = List.of(c.input(), c.kernel());
            Tolerance tol = Tolerance.ARITHMETIC.withAbsolute(c.kernel().size() * maxAbs(c.input()) * maxAbs(c.kernel()) * 1e-6);
            Oracle.check(engine(), c + " conv", tol, in, t -> List.of(t.get(0).conv(t.get(1), c.options())));
            Oracle.check(engine(), c + " convTranspose", tol, List.of(c.transposeInput(), c.kernel()), t -> List.of(
                    t.get(0).convTranspose(t.get(1), c.options().withInputDilation(1).withBatchGroupSize(1))));
        });
    }

    /** Windows over tensors of rank 1 to 4 (sizes up to 9, occasionally empty), valid or not. */
    static Gen<WindowCase> windowCases(Gen<DType> types, Elements.Mix mix) {
        return rs -> {
            int rank = Generate.range(1, 4).generate(rs);
            int[] dims = new int[rank], window = new int[rank], strides = new int[rank], dil = new int[rank];
            int[][] pad = new int[rank][];
            for (int a = 0; a < rank; a++) {
                dims[a] = Generate.range(0, 9).generate(rs);
                window[a] = Generate.range(1, 3).generate(rs);
                strides[a] = Generate.range(1, 3).generate(rs);
                dil[a] = Generate.range(1, 2).generate(rs);
                pad[a] = new int[] {Generate.range(0, 2).generate(rs), Generate.range(0, 2).generate(rs)};
            }
            Padding padding = switch (Generate.range(0, 2).generate(rs)) {
                case 0 -> Padding.VALID;
                case 1 -> Padding.SAME;
                default -> Padding.explicit(pad);
            };
            TensorCase x = Generators.values(types.generate(rs), Shape.of(dims), mix).generate(rs);
            return new WindowCase(x, window, WindowOptions.defaults().withStrides(strides).withDilations(dil).withPadding(padding));
        };
    }

    /** Scatter cases: windows without dilation, and a source of small F32 values. */
    static Gen<ScatterCase> scatterCases() {
        Gen<WindowCase> windows = windowCases(Generators.numericTypes(), Elements.Mix.ALL);
        return rs -> {
            WindowCase w0 = windows.generate(rs);
            WindowCase w = new WindowCase(w0.x(), w0.window(), w0.options().withDilations(1));
            Shape s = w.x().shape();
            int[] pooled = new int[s.rank()];
            int[] strides = w.options().strides();
            boolean valid = true;
            for (int a = 0; a < s.rank(); a++) {
                int win = w.window()[a], n = s.dim(a);
                int lo = 0, hi = 0;
                Padding p = w.options().padding();
                if (p.mode() == Padding.Mode.SAME) {
                    lo = (win - 1) / 2;
                    hi = win - 1 - lo;
                } else if (p.mode() == Padding.Mode.EXPLICIT) {
                    lo = p.lo(a);
                    hi = p.hi(a);
                }
                int stride = strides.length == 1 ? strides[0] : strides[a];
                int out = Math.floorDiv(n + lo + hi - win, stride) + 1;
                pooled[a] = out > 0 ? out : 0;
                valid &= out > 0 || n == 0;
            }
            Shape source = valid ? Shape.of(pooled) : s;
            return new ScatterCase(w, Generators.values(DType.F32, source, Elements.Mix.SMALL).generate(rs));
        };
    }

    /** 1-D and 2-D convolutions with groups, dilations, paddings (negative too) and layouts; some are invalid. */
    static Gen<ConvCase> convCases() {
        return rs -> {
            int sr = Generate.range(1, 2).generate(rs);
            int groups = Generate.range(1, 2).generate(rs);
            boolean batchGroups = groups > 1 && Generate.booleans().generate(rs);
            int cg = Generate.range(1, 3).generate(rs), og = Generate.range(1, 3).generate(rs);
            int[] in = new int[sr + 2], k = new int[sr + 2];
            in[0] = Generate.range(1, 2).generate(rs) * (batchGroups ? groups : 1);
            in[1] = batchGroups ? cg : cg * groups;
            k[0] = og * groups;
            k[1] = cg;
            int[] strides = new int[sr], inDil = new int[sr], kDil = new int[sr];
            int[][] pad = new int[sr][];
            for (int i = 0; i < sr; i++) {
                in[i + 2] = Generate.range(1, 8).generate(rs);
                k[i + 2] = Generate.range(1, 3).generate(rs);
                strides[i] = Generate.range(1, 2).generate(rs);
                inDil[i] = Generate.range(1, 2).generate(rs);
                kDil[i] = Generate.range(1, 2).generate(rs);
                pad[i] = new int[] {Generate.range(-1, 2).generate(rs), Generate.range(-1, 2).generate(rs)};
            }
            Padding padding = switch (Generate.range(0, 2).generate(rs)) {
                case 0 -> Padding.VALID;
                case 1 -> Padding.SAME;
                default -> Padding.explicit(pad);
            };
            ConvOptions o = ConvOptions.defaults().withStrides(strides).withInputDilation(inDil).withKernelDilation(kDil)
                    .withPadding(padding).withFeatureGroupSize(batchGroups ? 1 : groups).withBatchGroupSize(batchGroups ? groups : 1);
            DType t = Generators.oneOf(DType.F32, DType.F64, DType.F16, DType.BF16, DType.S32).generate(rs);
            boolean channelsLast = Generate.booleans().generate(rs);
            if (channelsLast) {
                int r = sr + 2;
                o = o.withInputPermutation(ConvOptions.channelsLast(r)).withOutputPermutation(ConvOptions.channelsLast(r));
                int last = in[1];
                System.arraycopy(in, 2, in, 1, sr);
                in[r - 1] = last;
            }
            int[] y = in.clone();
            y[channelsLast ? sr + 1 : 1] = k[0];
            y[0] = Math.max(1, in[0] / (batchGroups ? groups : 1));
            TensorCase input = Generators.values(t, Shape.of(in), Elements.Mix.SMALL).generate(rs);
            TensorCase kernel = Generators.values(t, Shape.of(k), Elements.Mix.SMALL).generate(rs);
            TensorCase transposeInput = Generators.values(t, Shape.of(y), Elements.Mix.SMALL).generate(rs);
            return new ConvCase(input, kernel, transposeInput, o);
        };
    }

    /** The largest finite magnitude in {@code x} (1 when there is none). */
    static double maxAbs(TensorCase x) {
        double m = 1;
        for (int i = 0; i < x.size(); i++) {
            double v = Math.abs(x.doubleAt(i));
            if (Double.isFinite(v)) m = Math.max(m, v);
        }
        return m;
    }
}
