package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.layers.AlphaDropout;
import dev.jburn.nn.layers.BatchNorm;
import dev.jburn.nn.layers.GroupNorm;
import dev.jburn.nn.layers.InstanceNorm;
import dev.jburn.nn.layers.LayerNorm;
import dev.jburn.nn.layers.Pad;
import dev.jburn.nn.layers.Resize;
import dev.jburn.nn.layers.RmsNorm;
import dev.jburn.nn.layers.Transpose;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Bad options and bad inputs of the normalization, alpha-dropout and shape layers. */
class NormLayersTest {
    private static Model in(int... dims) { return Model.input("x", Shape.of(dims)); }

    /** Building {@code m} fails with a message that starts with {@code prefix} and contains every {@code parts}. */
    private static void fails(String prefix, Model m, String... parts) {
        JBurnException e = assertThrows(JBurnException.class, m::summary);
        assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
        for (String p : parts) assertTrue(e.getMessage().contains(p), e.getMessage());
    }

    private static void badOption(String prefix, Runnable r, String part) {
        JBurnException e = assertThrows(JBurnException.class, r::run);
        assertTrue(e.getMessage().startsWith(prefix) && e.getMessage().contains(part), e.getMessage());
    }

    @Test
    void badOptionsNameTheKind() {
        badOption("batch_norm", () -> BatchNorm.of().withMomentum(1.5), "momentum");
        badOption("batch_norm", () -> BatchNorm.of().withEpsilon(0), "epsilon");
        badOption("layer_norm", () -> LayerNorm.of().withAxes(0), "axes");
        badOption("group_norm", () -> GroupNorm.of(0), "groups");
        badOption("instance_norm", () -> InstanceNorm.of().withEpsilon(-1), "epsilon");
        badOption("rms_norm", () -> RmsNorm.of().withEpsilon(Double.POSITIVE_INFINITY), "epsilon");
        badOption("alpha_dropout", () -> AlphaDropout.of(1.0), "[0, 1)");
        badOption("alpha_dropout", () -> in(-1, 4).alphaDropout(-0.1), "[0, 1)");
        badOption("transpose", () -> Transpose.of(0, 1), "permutation");
        badOption("transpose", () -> Transpose.of(1, 1), "permutation");
        badOption("pad", () -> Pad.of(new int[] {1, -1}), "non-negative");
        badOption("pad", () -> Pad.of(new int[] {1}), "{lo, hi}");
        badOption("resize", () -> Resize.of(), "1 to 3");
        badOption("resize", () -> Resize.of(2, 0), "positive");
        badOption("resize", () -> Resize.scale(2, -1), "positive");
        badOption("resize", () -> new Resize(new int[] {2}, new double[] {2}, Resize.Method.NEAREST, false), "either");
    }

    @Test
    void badInputsNameTheLayerAndTheShape() {
        fails("batch_norm_0 (batch_norm)", in(4).batchNorm(), "[4]");
        fails("batch_norm_0 (batch_norm)", in(-1, 3).apply(BatchNorm.of().withAxis(2)), "out of range", "[-1, 3]");
        fails("batch_norm_0 (batch_norm)", in(-1, 3).apply(BatchNorm.of().withAxis(0)), "batch axis");
        fails("batch_norm_0 (batch_norm)", in(-1, -1).batchNorm(), "known feature size", "[-1, -1]");
        fails("batch_norm_0 (batch_norm)", Model.input("x", Shape.of(-1, 3), DType.S32).batchNorm(), "float");
        fails("layer_norm_0 (layer_norm)", in(-1, 3).apply(LayerNorm.of().withAxes(2)), "[-1, 3]");
        fails("layer_norm_0 (layer_norm)", in(-1, 4, -1).layerNorm(), "known", "[-1, 4, -1]");
        fails("group_norm_0 (group_norm)", in(-1, 8, 6).groupNorm(4), "4 groups", "6 channels", "[-1, 8, 6]");
        fails("group_norm_0 (group_norm)", in(-1, 6, 8).apply(GroupNorm.of(4).withAxis(1)), "6 channels");
        fails("instance_norm_0 (instance_norm)", in(-1, 4).instanceNorm(), "[-1, 4]");
        fails("rms_norm_0 (rms_norm)", Model.input("x", Shape.of(-1, 3), DType.S32).rmsNorm(), "float");
        fails("alpha_dropout_0 (alpha_dropout)", Model.input("x", Shape.of(-1, 3), DType.S32).alphaDropout(0.1), "float");
        fails("transpose_0 (transpose)", in(-1, 2, 3, 4).transpose(2, 1), "[-1, 2, 3, 4]");
        fails("pad_0 (pad)", in(-1, 5, 3).pad(new int[] {1, 1}, new int[] {1, 1}), "2 spatial axes", "[-1, 5, 3]");
        fails("pad_0 (pad)", Model.input("x", Shape.of(-1, 5, 3), DType.S32).apply(Pad.of(new int[] {1, 1}).withValue(0.5)), "integer");
        fails("resize_0 (resize)", in(-1, 4, 4).resize(8, 8), "2 spatial axes", "[-1, 4, 4]");
        fails("resize_0 (resize)", Model.input("x", Shape.of(-1, 4, 4, 1), DType.S32).resize(8, 8), "float");
        fails("resize_0 (resize)", in(-1, 1, 4, 1).apply(Resize.scale(0.5, 1)), "no element");
    }

    @Test
    void chainingMethodsBuildTheExpectedShapesAndParameters() {
        Model m = in(-1, 6, 6, 4).batchNorm().groupNorm(2).instanceNorm().layerNorm().rmsNorm().alphaDropout(0.1)
                .pad(new int[] {1, 1}, new int[] {0, 2}).resize(4, 5).transpose(3, 1, 2);
        assertEquals(Shape.of(-1, 4, 4, 5), m.outputSpecs().getFirst().shape());
        // gamma + beta of each of batch, group, instance and layer norm, gamma of RMS norm
        assertEquals(4 * 8 + 4, m.parameterCount());
        assertEquals(java.util.Set.of("batch_norm_0.mean", "batch_norm_0.var"), m.stateSpecs().keySet());
        assertEquals(Shape.of(-1, -1, 12, 4), in(-1, -1, 6, 4).apply(Resize.scale(1, 2)).outputSpecs().getFirst().shape());
    }

    @Test
    void batchNormTrainingUpdatesTheRunningStatisticsAndInferenceUsesThem() {
        Model m = in(-1, 2).apply(BatchNorm.of().withMomentum(0.9));
        ModelState s = m.init(Prng.key(0));
        Tensor x = Tensor.of(new float[][] {{1, 10}, {3, 20}});
        Forward f = m.forward(s, Prng.key(1), x);
        assertArrayEquals(new float[] {-1, -1, 1, 1}, f.output().toFloatArray(), 1e-3f);   // (x - mean) / sqrt(var + 1e-3)
        assertArrayEquals(new float[] {0.2f, 1.5f}, f.state().get("batch_norm_0.mean").toFloatArray(), 1e-6f);
        assertArrayEquals(new float[] {0.9f + 0.1f * 1, 0.9f + 0.1f * 25}, f.state().get("batch_norm_0.var").toFloatArray(), 1e-5f);
        // inference on the initial statistics (0, 1): x / sqrt(1 + 1e-3)
        assertArrayEquals(new float[] {1, 10, 3, 20}, m.predict(s, x).toFloatArray(), 2e-2f);
    }

    /**
     * Batch norm's written-out training gradient (BatchNormTraining) equals autodiff of the textbook formula
     * {@code (x - mean) / sqrt(var + eps) · gamma + beta} op by op, in F64, for the input and both parameters:
     * channels-last and channels-first, with and without gamma and beta, and a Jit-compiled run (whose passes drop
     * the gradient marks) against the eager one.
     */
    @Test
    void batchNormTrainingGradientEqualsTheFormulasAutodiff() {
        record Setup(int[] dims, int axis, boolean center, boolean scale) {}
        for (Setup c : java.util.List.of(new Setup(new int[] {4, 3, 3, 5}, -1, true, true), new Setup(new int[] {3, 4, 2, 2}, 1, true, true),
                new Setup(new int[] {6, 3}, -1, false, true), new Setup(new int[] {5, 2, 4}, -1, true, false), new Setup(new int[] {5, 4}, -1, false, false))) {
            int[] dims = c.dims().clone();
            dims[0] = -1;
            Model m = Model.input("x", Shape.of(dims), DType.F64).apply(BatchNorm.of().withAxis(c.axis()).withCenter(c.center()).withScale(c.scale()).withEpsilon(1e-3));
            Tensor x = Prng.normalSplit(Prng.key(3), Shape.of(c.dims()), DType.F64, 2, 3);
            Tensor w = Prng.normalSplit(Prng.key(4), Shape.of(c.dims()), DType.F64, 0, 1);
            int r = c.dims().length, a = c.axis() < 0 ? c.axis() + r : c.axis();
            int[] axes = java.util.stream.IntStream.range(0, r).filter(k -> k != a).toArray();
            int[] along = new int[r];
            java.util.Arrays.fill(along, 1);
            along[a] = c.dims()[a];
            java.util.Map<String, Tensor> params = new java.util.LinkedHashMap<>();
            if (c.scale()) params.put("batch_norm_0.gamma", Prng.normalSplit(Prng.key(5), Shape.of(c.dims()[a]), DType.F64, 1, 0.5));
            if (c.center()) params.put("batch_norm_0.beta", Prng.normalSplit(Prng.key(6), Shape.of(c.dims()[a]), DType.F64, 0, 0.5));
            java.util.Map<String, Tensor> state = java.util.Map.of("batch_norm_0.mean", Tensor.zeros(Shape.of(c.dims()[a]), DType.F64),
                    "batch_norm_0.var", Tensor.ones(Shape.of(c.dims()[a]), DType.F64));
            java.util.function.Function<java.util.List<Tensor>, Tensor> layer = in -> {
                java.util.Map<String, Tensor> p = new java.util.LinkedHashMap<>();
                int k = 1;
                for (String n : params.keySet()) p.put(n, in.get(k++));
                return m.call(p, state, java.util.List.of(in.getFirst()), true, Prng.key(0)).output().multiply(w).sum();
            };
            java.util.function.Function<java.util.List<Tensor>, Tensor> formula = in -> {
                Tensor xi = in.getFirst(), mean = xi.mean(axes, true), d = xi.subtract(mean);
                Tensor y = d.multiply(d.multiply(d).mean(axes, true).add(1e-3).rsqrt());
                int k = 1;
                if (c.scale()) y = y.multiply(in.get(k++).reshape(along));
                if (c.center()) y = y.add(in.get(k).reshape(along));
                return y.multiply(w).sum();
            };
            java.util.List<Tensor> args = new java.util.ArrayList<>(java.util.List.of(x));
            args.addAll(params.values());
            java.util.List<Tensor> got = dev.jburn.autodiff.Autodiff.gradList(layer).apply(args);
            java.util.List<Tensor> want = dev.jburn.autodiff.Autodiff.gradList(formula).apply(args);
            java.util.List<Tensor> jit = dev.jburn.graph.Jit.compileList(in -> dev.jburn.autodiff.Autodiff.gradList(layer).apply(in)).apply(args);
            assertEquals(want.size(), got.size());
            for (int k = 0; k < want.size(); k++) {
                assertArrayEquals(want.get(k).toDoubleArray(), got.get(k).toDoubleArray(), 1e-10, java.util.Arrays.toString(c.dims()) + " gradient " + k);
                assertArrayEquals(got.get(k).toDoubleArray(), jit.get(k).toDoubleArray(), 1e-12, "jit " + java.util.Arrays.toString(c.dims()) + " gradient " + k);
            }
        }
    }
}
