package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.conformance.ChannelsLastLayer;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A channels-last conv layer's compiled forward and both cotangents on the GPU ({@link ChannelsLastConvs}) against the
 * cpu engine, in F32 and F64: first layers of one or three channels, whose forward conv and kernel cotangent run as
 * direct kernels ({@link ChannelsLastDirectConv}; the small CNN's conv 1, a batch whose kernel cotangent has more
 * chunks than the chunk sum's threads, a strided padded RGB layer and a 3-D layer whose input cotangents are small
 * enough too, a dilated 1-D layer, 256 filters), and the small
 * CNN's conv 2, which stays a gather and a GEMM. Counts which path ran.
 */
@Tag("gpu")
class CudaChannelsLastConvTest {
    private static Engine gpu;
    private static CudaBackend backend;

    @BeforeAll
    static void needsCuda() {
        Assumptions.assumeTrue(CudaAvailability.get().available(), () -> "cuda unavailable: " + CudaAvailability.get().reason());
        gpu = Engine.select("cuda");
        backend = (CudaBackend) gpu.backend();
    }

    private static Tensor random(Random rnd, DType type, int... dims) {
        int n = 1;
        for (int d : dims) n *= d;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = rnd.nextGaussian();
        return Tensor.of(v).reshape(Shape.of(dims)).asType(type);
    }

    /** One layer, its expected direct runs (forward, kernel cotangent), and the batch. */
    private record Case(ChannelsLastLayer layer, int batch, int directForward, int directGradient) {}

    @Test
    void channelsLastLayersMatchTheCpuEngine() {
        int[][] valid = {{0, 0}, {0, 0}};
        List<Case> cases = List.of(
                new Case(new ChannelsLastLayer(new int[] {28, 28}, 1, 32, new int[] {3, 3}, new int[] {1, 1}, valid, new int[] {1, 1}), 4, 1, 1),
                new Case(new ChannelsLastLayer(new int[] {28, 28}, 1, 32, new int[] {3, 3}, new int[] {1, 1}, valid, new int[] {1, 1}), 40, 1, 1),
                new Case(new ChannelsLastLayer(new int[] {17, 19}, 3, 7, new int[] {3, 3}, new int[] {2, 2}, new int[][] {{1, 1}, {1, 1}},
                        new int[] {1, 1}), 3, 2, 1),
                new Case(new ChannelsLastLayer(new int[] {6, 5}, 1, 256, new int[] {2, 2}, new int[] {1, 1}, valid, new int[] {1, 1}), 2, 1, 0),
                new Case(new ChannelsLastLayer(new int[] {40}, 2, 100, new int[] {5}, new int[] {1}, new int[][] {{2, 1}}, new int[] {2}), 3, 1, 1),
                new Case(new ChannelsLastLayer(new int[] {5, 6, 4}, 2, 3, new int[] {2, 3, 2}, new int[] {1, 2, 1}, new int[][] {{0, 1}, {1, 0}, {1, 1}},
                        new int[] {1, 1, 1}), 3, 2, 1),
                new Case(new ChannelsLastLayer(new int[] {13, 13}, 32, 64, new int[] {3, 3}, new int[] {1, 1}, valid, new int[] {1, 1}), 8, 0, 0));
        ChannelsLastConvs cl = backend.channelsLast;
        cl.directOverride = true; // on whatever -Djburn.cuda.directConv says (on by default)
        try {
            run(cases, cl);
        } finally {
            cl.directOverride = null;
        }
    }

    private static void run(List<Case> cases, ChannelsLastConvs cl) {
        Random rnd = new Random(1207);
        for (DType type : List.of(DType.F32, DType.F64)) {
            for (Case c : cases) {
                ChannelsLastLayer layer = c.layer();
                Tensor x = random(rnd, type, layer.inputDims(c.batch()));
                Tensor w = random(rnd, type, layer.kernelDims());
                Tensor probe;
                try (Tensor y = x.conv(w, layer.options())) {
                    probe = random(rnd, type, y.shape().dims());
                }
                List<Tensor> cpuIn = List.of(x, w, probe);
                List<Tensor> want = Jit.compileList(layer::step).apply(cpuIn);
                List<Tensor> gpuIn = new ArrayList<>();
                for (Tensor t : cpuIn) gpuIn.add(t.to(gpu));
                long fwd = cl.directForwardRuns.get(), kg = cl.directGradientRuns.get();
                List<Tensor> got = Jit.compileList(layer::step).apply(gpuIn);
                String what = type + " conv " + java.util.Arrays.toString(layer.inputDims(c.batch())) + " * "
                        + java.util.Arrays.toString(layer.kernelDims()) + " strides " + java.util.Arrays.toString(layer.strides());
                assertEquals(c.directForward(), cl.directForwardRuns.get() - fwd, what + ": forward groups run by the direct kernel");
                assertEquals(c.directGradient(), cl.directGradientRuns.get() - kg, what + ": kernel cotangents run by the direct kernels");
                String[] names = {"output", "input cotangent", "kernel cotangent"};
                double tolerance = type == DType.F32 ? 1e-4 : 1e-11;
                for (int i = 0; i < 3; i++) {
                    assertEquals(want.get(i).shape(), got.get(i).shape(), what + " " + names[i]);
                    double[] a = want.get(i).toDoubleArray(), b = got.get(i).toDoubleArray();
                    double max = 0;
                    for (double v : a) max = Math.max(max, Math.abs(v));
                    for (int j = 0; j < a.length; j++) {
                        if (!(Math.abs(a[j] - b[j]) <= tolerance * (1 + max))) {
                            fail(what + " " + names[i] + ": element " + j + " is " + b[j] + ", the cpu engine's " + a[j]);
                        }
                    }
                }
                for (List<Tensor> ts : List.of(want, got, gpuIn, cpuIn)) ts.forEach(Tensor::close);
            }
        }
    }
}
