package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Padding;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The vector pooling kernels and the parallel paths against the scalar oracle on random
 * shapes, windows, strides, dilations and paddings. Max and min agree bit for bit; sums and
 * products are accumulated in another order and width, so they agree within rounding.
 */
class WindowPathsTest {
    private static final List<Engine> FAST = List.of(Engine.defaultEngine(), PARALLEL);

    private record Case(int[] dims, int[] window, WindowOptions opts) {}

    /** Pooling-shaped cases (real windows on the last two axes only), so the vector kernels run. */
    private static Case pooling(Random rnd) {
        int rank = 1 + rnd.nextInt(4);
        int[] dims = new int[rank], window = new int[rank], strides = new int[rank], dil = new int[rank];
        int[][] pad = new int[rank][];
        for (int a = 0; a < rank; a++) {
            boolean spatial = a >= rank - 2;
            dims[a] = 1 + rnd.nextInt(spatial ? 40 : 3);
            window[a] = spatial ? 1 + rnd.nextInt(Math.min(dims[a], 4)) : 1;
            strides[a] = spatial ? 1 + rnd.nextInt(3) : 1;
            dil[a] = spatial && (dims[a] > 2 * window[a]) ? 1 + rnd.nextInt(2) : 1;
            pad[a] = spatial ? new int[] {rnd.nextInt(3), rnd.nextInt(3)} : new int[] {0, 0};
        }
        Padding p = switch (rnd.nextInt(3)) {
            case 0 -> Padding.VALID;
            case 1 -> Padding.SAME;
            default -> Padding.explicit(pad);
        };
        return new Case(dims, window, WindowOptions.defaults().withStrides(strides).withDilations(dil).withPadding(p));
    }

    /** Channels-last pooling (window {@code [1, kh, kw, 1]} and the like), so the block kernels run. */
    private static Case channelsLast(Random rnd) {
        int rank = 3 + rnd.nextInt(2);
        int[] dims = new int[rank], window = new int[rank], strides = new int[rank], dil = new int[rank];
        int[][] pad = new int[rank][];
        for (int a = 0; a < rank; a++) {
            boolean spatial = a > 0 && a < rank - 1;
            dims[a] = a == rank - 1 ? 1 + rnd.nextInt(40) : 1 + rnd.nextInt(spatial ? 9 : 3);
            window[a] = spatial ? 1 + rnd.nextInt(Math.min(dims[a], 3)) : 1;
            strides[a] = spatial ? 1 + rnd.nextInt(2) : 1;
            dil[a] = spatial && dims[a] > 2 * window[a] ? 1 + rnd.nextInt(2) : 1;
            pad[a] = spatial ? new int[] {rnd.nextInt(2), rnd.nextInt(2)} : new int[] {0, 0};
        }
        Padding p = rnd.nextBoolean() ? Padding.SAME : Padding.explicit(pad);
        return new Case(dims, window, WindowOptions.defaults().withStrides(strides).withDilations(dil).withPadding(p));
    }

    /** Windows on any axis (the generic kernels). */
    private static Case general(Random rnd) {
        int rank = 1 + rnd.nextInt(4);
        int[] dims = new int[rank], window = new int[rank], strides = new int[rank];
        int[][] pad = new int[rank][];
        for (int a = 0; a < rank; a++) {
            dims[a] = 1 + rnd.nextInt(7);
            window[a] = 1 + rnd.nextInt(dims[a]);
            strides[a] = 1 + rnd.nextInt(2);
            pad[a] = new int[] {rnd.nextInt(2), rnd.nextInt(2)};
        }
        return new Case(dims, window, WindowOptions.defaults().withStrides(strides).withPadding(Padding.explicit(pad)));
    }

    @Test
    void floatPoolingMatchesTheOracle() {
        Random rnd = new Random(21);
        for (int trial = 0; trial < 120; trial++) {
            Case c = trial % 4 == 3 ? general(rnd) : trial % 4 == 2 ? channelsLast(rnd) : pooling(rnd);
            DType t = (trial / 4) % 2 == 0 ? DType.F32 : DType.F64;
            Tensor x = randomFloat(rnd, t, c.dims);
            Tensor ox = x.to(ORACLE);
            for (Engine e : FAST) {
                Tensor fx = x.to(e);
                assertSameBits(ox.windowMax(c.window, c.opts), fx.windowMax(c.window, c.opts));
                assertSameBits(ox.windowMin(c.window, c.opts), fx.windowMin(c.window, c.opts));
                assertClose(ox.windowSum(c.window, c.opts), fx.windowSum(c.window, c.opts), 1e-5);
                assertClose(ox.windowProduct(c.window, c.opts), fx.windowProduct(c.window, c.opts), 1e-5);
            }
        }
    }

    @Test
    void integerAndHalfWindowsMatchTheOracle() {
        Random rnd = new Random(22);
        DType[] types = {DType.S32, DType.S64, DType.U8, DType.S16, DType.U64, DType.F16, DType.BF16};
        for (int trial = 0; trial < 40; trial++) {
            Case c = trial % 2 == 0 ? general(rnd) : pooling(rnd);
            DType t = types[trial % types.length];
            Tensor x = random(rnd, t, c.dims);
            Tensor ox = x.to(ORACLE);
            for (Engine e : FAST) {
                Tensor fx = x.to(e);
                assertSameBits(ox.windowSum(c.window, c.opts), fx.windowSum(c.window, c.opts));
                assertSameBits(ox.windowMax(c.window, c.opts), fx.windowMax(c.window, c.opts));
                assertSameBits(ox.windowMin(c.window, c.opts), fx.windowMin(c.window, c.opts));
            }
        }
    }

    @Test
    void scatterPathsAgree() {
        Random rnd = new Random(23);
        for (int trial = 0; trial < 60; trial++) {
            Case c = trial % 3 == 0 ? general(rnd) : trial % 3 == 1 ? channelsLast(rnd) : pooling(rnd);
            WindowOptions o = c.opts.withDilations(1);
            DType t = trial % 3 == 0 ? DType.S32 : trial % 3 == 1 ? DType.F32 : DType.F64;
            // few distinct values, so ties are common
            Tensor x = random(rnd, DType.S32, c.dims).remainder(4).asType(t);
            Tensor pooled = x.windowMax(c.window, o);
            Tensor src = randomFloat(rnd, DType.F64, pooled.shape().dims()).asType(t);
            Tensor expectMax = x.to(ORACLE).windowScatterMax(src.to(ORACLE), 0, c.window, o);
            Tensor expectMin = x.to(ORACLE).windowScatterMin(src.to(ORACLE), 0, c.window, o);
            for (Engine e : FAST) {
                assertSameBits(expectMax, x.to(e).windowScatterMax(src.to(e), 0, c.window, o));
                assertSameBits(expectMin, x.to(e).windowScatterMin(src.to(e), 0, c.window, o));
            }
        }
    }

    /** The F32 scatter fast path (channel runs sharing window offsets) on every case kind, with ties and NaNs. */
    @Test
    void f32ScatterMatchesTheOracle() {
        Random rnd = new Random(24);
        for (int trial = 0; trial < 90; trial++) {
            Case c = trial % 3 == 0 ? general(rnd) : trial % 3 == 1 ? channelsLast(rnd) : pooling(rnd);
            WindowOptions o = c.opts.withDilations(1);
            Tensor v = random(rnd, DType.S32, c.dims).remainder(4).asType(DType.F32);
            // zeros become NaN (0/0), the rest v + 1: few distinct values, so ties are common
            Tensor x = trial % 2 == 0 ? v.add(v.divide(v)) : v;
            Tensor pooled = x.windowMax(c.window, o);
            Tensor src = randomFloat(rnd, DType.F32, pooled.shape().dims());
            Tensor expectMax = x.to(ORACLE).windowScatterMax(src.to(ORACLE), 0, c.window, o);
            Tensor expectMin = x.to(ORACLE).windowScatterMin(src.to(ORACLE), 0, c.window, o);
            for (Engine e : FAST) {
                assertSameBits(expectMax, x.to(e).windowScatterMax(src.to(e), 0, c.window, o));
                assertSameBits(expectMin, x.to(e).windowScatterMin(src.to(e), 0, c.window, o));
            }
        }
    }

    /**
     * Channels-last pooling without padding, as the CNN's ({@code [1, 2, 2, 1]} windows, stride 2, valid), where the
     * kernels take every window's offsets from the first plane's ({@link WindowGeometry#origins}) and the scatter skips
     * its zero fill when the windows cover the plane: even and odd sizes, channels that fill whole vectors or not,
     * overlapping windows, ties and NaNs, against the oracle bit for bit.
     */
    @Test
    void unpaddedChannelsLastPoolsMatchTheOracle() {
        Random rnd = new Random(25);
        for (int trial = 0; trial < 40; trial++) {
            int h = 2 + rnd.nextInt(9), w = 2 + rnd.nextInt(9), c = new int[] {8, 16, 20, 32, 48, 64}[rnd.nextInt(6)];
            int k = 2 + rnd.nextInt(2), s = trial % 4 == 3 ? 1 : k; // overlapping windows now and then
            int[] dims = {1 + rnd.nextInt(3), Math.max(h, k), Math.max(w, k), c}, window = {1, k, k, 1};
            WindowOptions o = WindowOptions.defaults().withStrides(new int[] {1, s, s, 1}).withPadding(Padding.VALID);
            Tensor v = random(rnd, DType.S32, dims).remainder(4).asType(DType.F32);
            Tensor x = trial % 2 == 0 ? v.add(v.divide(v)) : v; // ties, and NaN for zeros
            Tensor pooled = x.windowMax(window, o);
            assertSameBits(x.to(ORACLE).windowMax(window, o), pooled);
            Tensor src = randomFloat(rnd, DType.F32, pooled.shape().dims());
            for (Engine e : FAST) {
                assertSameBits(x.to(ORACLE).windowMax(window, o), x.to(e).windowMax(window, o));
                assertSameBits(x.to(ORACLE).windowScatterMax(src.to(ORACLE), 0, window, o), x.to(e).windowScatterMax(src.to(e), 0, window, o));
                assertSameBits(x.to(ORACLE).windowScatterMin(src.to(ORACLE), 0, window, o), x.to(e).windowScatterMin(src.to(e), 0, window, o));
            }
        }
    }

    /** Element-wise |a - b| <= tol * max(1, |a|), same dtype and shape; NaN matches NaN. */
    static void assertClose(Tensor expected, Tensor actual, double tol) {
        assertEquals(expected.dtype(), actual.dtype());
        assertEquals(expected.shape(), actual.shape());
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            if (Double.isNaN(e[i]) || Double.isInfinite(e[i])) {
                assertEquals(e[i], a[i], "element " + i);
                continue;
            }
            assertTrue(Math.abs(e[i] - a[i]) <= tol * Math.max(1, Math.abs(e[i])), "element " + i + ": " + e[i] + " vs " + a[i]);
        }
    }
}
