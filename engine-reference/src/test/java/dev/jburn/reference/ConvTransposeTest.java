package dev.jburn.reference;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * convTranspose is the adjoint of conv: {@code <conv(x, k), y> == <x, convTranspose(y, k)>} for
 * random x, y, k over strides, dilations, paddings (negative too), output paddings, groups and
 * layouts; plus output sizes, a hand-computed case (equal to PyTorch's conv_transpose1d) and errors.
 */
class ConvTransposeTest {
    private static final List<Engine> ENGINES = List.of(Engine.defaultEngine(), ORACLE, PARALLEL);
    private static final ConvOptions DEF = ConvOptions.defaults();

    @Test
    void handComputedStrideTwo() {
        for (Engine e : ENGINES) {
            Tensor y = Tensor.of(1f, 2f).reshape(1, 1, 2).to(e);
            Tensor k = Tensor.of(1f, 2f, 3f).reshape(1, 1, 3).to(e);
            // forward: y0 = x0 + 2x1 + 3x2, y1 = x2 + 2x3 + 3x4; the adjoint spreads y back
            assertArrayEquals(new float[] {1, 2, 5, 4, 6}, y.convTranspose(k, DEF.withStrides(2)).toFloatArray());
            assertArrayEquals(new float[] {2, 5, 4}, y.convTranspose(k, DEF.withStrides(2).withPadding(Padding.symmetric(1))).toFloatArray());
            assertArrayEquals(new float[] {3, 2, 1}, Tensor.of(1f).reshape(1, 1, 1).to(e).convTranspose(k.reverse(2)).toFloatArray());
        }
    }

    @Test
    void outputSizes() {
        Tensor y = Tensor.iota(Shape.of(1, 1, 3), DType.F32);
        Tensor k = Tensor.iota(Shape.of(1, 1, 3), DType.F32);
        assertEquals(Shape.of(1, 1, 7), y.convTranspose(k, DEF.withStrides(2)).shape());
        assertEquals(Shape.of(1, 1, 6), y.convTranspose(k, DEF.withStrides(2).withPadding(Padding.SAME)).shape());
        assertEquals(Shape.of(1, 1, 5), y.convTranspose(k, DEF.withStrides(2).withPadding(Padding.symmetric(1))).shape());
        assertEquals(Shape.of(1, 1, 6), y.convTranspose(k, DEF.withStrides(2).withPadding(Padding.symmetric(1)).withOutputPadding(1)).shape());
        assertEquals(Shape.of(1, 1, 11), y.convTranspose(k, DEF.withStrides(2).withKernelDilation(3)).shape());
        assertEquals(Shape.of(1, 1, 5), y.convTranspose(k).shape());
        // [C_in, C_out/groups, k]: 4 input channels, 2 groups of 3 output channels
        Tensor yg = Tensor.iota(Shape.of(2, 4, 3, 3), DType.F32);
        Tensor kg = Tensor.iota(Shape.of(4, 3, 2, 2), DType.F32);
        assertEquals(Shape.of(2, 6, 6, 6), yg.convTranspose(kg, DEF.withStrides(2).withFeatureGroupSize(2)).shape());
    }

    @Test
    void adjointOfConvolution() {
        Random rnd = new Random(41);
        for (int trial = 0; trial < 90; trial++) {
            int sr = 1 + trial % 3;
            int fg = trial % 4 == 0 ? 2 : 1;
            int[] xd = new int[sr + 2], kd = new int[sr + 2];
            xd[0] = 1 + rnd.nextInt(2);
            xd[1] = fg * (1 + rnd.nextInt(3));
            kd[0] = fg * (1 + rnd.nextInt(3));
            kd[1] = xd[1] / fg;
            int[] s = new int[sr], dil = new int[sr], outPad = new int[sr];
            int[][] pad = new int[sr][];
            int mode = trial % 3; // 0 VALID, 1 SAME, 2 explicit
            for (int i = 0; i < sr; i++) {
                kd[i + 2] = 1 + rnd.nextInt(3);
                s[i] = 1 + rnd.nextInt(3);
                dil[i] = 1 + rnd.nextInt(2);
                int kEff = (kd[i + 2] - 1) * dil[i] + 1;
                pad[i] = new int[] {rnd.nextInt(4) - 1, rnd.nextInt(4) - 1};
                int lo = mode == 0 ? 0 : mode == 1 ? (kEff - 1) / 2 : pad[i][0];
                int hi = mode == 0 ? 0 : mode == 1 ? kEff - 1 - (kEff - 1) / 2 : pad[i][1];
                // an input size whose forward output is >= 1; SAME needs a multiple of the stride
                int n = Math.max(1, kEff - lo - hi) + rnd.nextInt(6);
                if (mode == 1) n = s[i] * (1 + rnd.nextInt(4));
                xd[i + 2] = n;
                outPad[i] = mode == 1 ? 0 : Math.floorMod(n + lo + hi - kEff, s[i]);
            }
            Padding p = mode == 0 ? Padding.VALID : mode == 1 ? Padding.SAME : Padding.explicit(pad);
            ConvOptions o = DEF.withStrides(s).withKernelDilation(dil).withPadding(p).withFeatureGroupSize(fg);
            boolean channelsLast = trial % 5 == 4;
            DType t = trial % 2 == 0 ? DType.F64 : DType.F32;
            Tensor x = randomFloat(rnd, t, xd), k = randomFloat(rnd, t, kd);
            Engine e = ENGINES.get(trial % ENGINES.size());
            x = x.to(e);
            k = k.to(e);
            ConvOptions layout = channelsLast ? o.withInputPermutation(ConvOptions.channelsLast(sr + 2))
                    .withOutputPermutation(ConvOptions.channelsLast(sr + 2)) : o;
            Tensor xl = channelsLast ? x.transpose(ConvReference.inverse(ConvOptions.channelsLast(sr + 2))) : x;
            Tensor fwd = xl.conv(k, layout);
            Tensor y = randomFloat(rnd, t, fwd.shape().dims()).to(e);
            Tensor back = y.convTranspose(k, layout.withOutputPadding(outPad));
            assertEquals(xl.shape(), back.shape(), "trial " + trial + " " + o);
            double lhs = fwd.multiply(y).asType(DType.F64).sum().toDoubleArray()[0];
            double rhs = xl.multiply(back).asType(DType.F64).sum().toDoubleArray()[0];
            double scale = fwd.abs().multiply(y.abs()).asType(DType.F64).sum().toDoubleArray()[0]
                    + xl.abs().multiply(back.abs()).asType(DType.F64).sum().toDoubleArray()[0] + 1e-30;
            double tol = t == DType.F64 ? 1e-12 : 1e-5;
            assertEquals(lhs, rhs, tol * scale, "trial " + trial + " " + o + " on " + e.name());
        }
    }

    @Test
    void errors() {
        Tensor y = Tensor.iota(Shape.of(1, 2, 4), DType.F32);
        Tensor k = Tensor.iota(Shape.of(2, 3, 2), DType.F32);
        assertMessage("input dilation is not supported", () -> y.convTranspose(k, DEF.withInputDilation(2)));
        assertMessage("batch groups are not supported", () -> y.convTranspose(k, DEF.withBatchGroupSize(2)));
        assertMessage("must match the input channels", () -> y.convTranspose(Tensor.iota(Shape.of(3, 2, 2), DType.F32)));
        assertMessage("evenly divisible by feature groups",
                () -> Tensor.iota(Shape.of(1, 3, 4), DType.F32).convTranspose(Tensor.iota(Shape.of(3, 1, 2), DType.F32),
                        DEF.withFeatureGroupSize(2)));
        assertMessage("output padding must be smaller than the stride", () -> y.convTranspose(k, DEF.withStrides(2).withOutputPadding(2)));
        assertMessage("and 0 with SAME padding", () -> y.convTranspose(k, DEF.withStrides(2).withOutputPadding(1).withPadding(Padding.SAME)));
        assertMessage("would result in an output of size", () -> y.convTranspose(k, DEF.withPadding(Padding.symmetric(3))));
        assertMessage("requires at least rank 3", () -> Tensor.iota(Shape.of(2, 4), DType.F32).convTranspose(k));
    }

    private static void assertMessage(String fragment, Executable call) {
        JBurnException ex = assertThrows(JBurnException.class, call);
        assertEquals("convTranspose", ex.op());
        assertTrue(ex.getMessage().contains(fragment), ex.getMessage());
    }
}
