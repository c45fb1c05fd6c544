package dev.jburn.bench.peer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Padding;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;

import java.util.List;
import java.util.function.Function;

/**
 * One conv kernel of the small CNN's train step ({@code jburn train --model cnn}: batch 128 of 28×28×1, 3×3 convs
 * with 32 then 64 filters, no padding): its forward pass (conv + bias), its input cotangent or its kernel cotangent.
 * JBurn runs it as the train step does: Jit-compiled, channels-last input and output, HWIO kernel (the nn layer's
 * layout), so the cpu engine's channels-last conv groups take it. PyTorch runs NCHW tensors as its train step does
 * (oneDNN): {@code F.conv2d} and {@code aten::convolution_backward} with one output asked for. Checks: the whole
 * result against the same computed in F64 (JBurn: eagerly; PyTorch: in double), within 1e-4 of the largest |value|.
 */
public record CnnConvWorkload(Layer layer, Pass pass) implements PeerWorkload {
    /** The CNN's two conv layers: input {@code [128, size, size, channels]}, {@code filters} 3×3 filters. */
    public enum Layer {
        CONV1(28, 1, 32), CONV2(13, 32, 64);

        final int size, channels, filters;

        Layer(int size, int channels, int filters) {
            this.size = size;
            this.channels = channels;
            this.filters = filters;
        }

        int out() { return size - K + 1; }
    }

    /** Forward (conv + bias), input cotangent, kernel cotangent. */
    public enum Pass { FORWARD, INPUT_GRADIENT, KERNEL_GRADIENT }

    static final int N = 128, K = 3;

    /** The kernels a train step runs (the first layer's input needs no cotangent). */
    public static List<CnnConvWorkload> all() {
        return List.of(new CnnConvWorkload(Layer.CONV1, Pass.FORWARD), new CnnConvWorkload(Layer.CONV1, Pass.KERNEL_GRADIENT),
                new CnnConvWorkload(Layer.CONV2, Pass.FORWARD), new CnnConvWorkload(Layer.CONV2, Pass.INPUT_GRADIENT),
                new CnnConvWorkload(Layer.CONV2, Pass.KERNEL_GRADIENT));
    }

    @Override public String group() { return "cnn"; }

    @Override public String name() {
        return layer.name().toLowerCase(java.util.Locale.ROOT) + " " + switch (pass) {
            case FORWARD -> "forward";
            case INPUT_GRADIENT -> "dx";
            case KERNEL_GRADIENT -> "dk";
        };
    }

    @Override public String shape() {
        return "f32 [" + N + "," + layer.size + "," + layer.size + "," + layer.channels + "] * 3x3x" + layer.channels + "x"
                + layer.filters + ", valid";
    }

    @Override public double flops() {
        return 2.0 * N * layer.out() * layer.out() * layer.filters * layer.channels * K * K;
    }

    @Override
    public TimedCase<Tensor> jburn(Engine cpu) {
        int s = layer.size, c = layer.channels, f = layer.filters, o = layer.out();
        Tensor x, k, b, g;
        try (var scope = Tensor.scope()) { // frees the keys
            Tensor key = Prng.key(3);
            x = scope.keep(Checks.onCpu(Prng.uniformSplit(key, Shape.of(N, s, s, c), DType.F32, -1, 1), cpu));
            k = scope.keep(Checks.onCpu(Prng.uniformSplit(Prng.foldIn(key, 1), Shape.of(K, K, c, f), DType.F32, -1, 1), cpu));
            b = scope.keep(Checks.onCpu(Prng.uniformSplit(Prng.foldIn(key, 2), Shape.of(f), DType.F32, -1, 1), cpu));
            g = scope.keep(Checks.onCpu(Prng.uniformSplit(Prng.foldIn(key, 3), Shape.of(N, o, o, f), DType.F32, -1, 1), cpu));
        }
        Function<List<Tensor>, List<Tensor>> fn = fn();
        CompiledFunction jit = Jit.compileList(fn);
        List<Tensor> in = List.of(x, k, b, g);
        return TimedCase.of(() -> jit.apply(in).getFirst(), r -> check(fn, in, r), Tensor::close, x, k, b, g);
    }

    /** The function of {@code [x, k, bias, g]} that runs this kernel (the cotangents: of {@code Σ conv(x, k)·g}). */
    private Function<List<Tensor>, List<Tensor>> fn() {
        ConvOptions opts = ConvOptions.defaults().withPadding(Padding.VALID).withKernelPermutation(ConvOptions.kernelSpatialFirst(4))
                .withInputPermutation(ConvOptions.channelsLast(4)).withOutputPermutation(ConvOptions.channelsLast(4));
        return switch (pass) {
            case FORWARD -> in -> List.of(in.get(0).conv(in.get(1), opts).add(in.get(2)));
            case INPUT_GRADIENT -> in -> List.of(Autodiff.grad((Tensor x) -> x.conv(in.get(1), opts).multiply(in.get(3)).sum())
                    .apply(in.get(0)));
            case KERNEL_GRADIENT -> in -> List.of(Autodiff.grad((Tensor k) -> in.get(0).conv(k, opts).multiply(in.get(3)).sum())
                    .apply(in.get(1)));
        };
    }

    /** {@code r} against {@code fn} run eagerly in F64 (also {@link ConvGradientWorkload}'s check). */
    static String check(Function<List<Tensor>, List<Tensor>> fn, List<Tensor> in, Tensor r) {
        List<Tensor> wide = in.stream().map(t -> t.asType(DType.F64)).toList();
        try (Tensor want = fn.apply(wide).getFirst()) {
            double[] w = want.toDoubleArray(), got = r.asType(DType.F64).toDoubleArray();
            if (w.length != got.length) return "FAIL size " + got.length + ", want " + w.length;
            double scale = 0, err = 0;
            for (int i = 0; i < w.length; i++) {
                scale = Math.max(scale, Math.abs(w[i]));
                err = Math.max(err, Math.abs(w[i] - got[i]));
            }
            return err <= 1e-4 * scale ? "ok" : "FAIL max |error| " + err + " > 1e-4 * " + scale;
        } finally {
            wide.forEach(Tensor::close);
        }
    }

    /**
     * The Python check of a torch row (also {@link ConvGradientWorkload}'s): the result {@code r} against {@code wantCall},
     * the same call on F64 copies of the inputs, within 1e-4 of the largest magnitude.
     */
    static String f64Check(String wantCall) {
        return "want = " + wantCall + ".numpy()\n" + """
                got = npy(r)
                if got.shape != want.shape:
                    return "FAIL shape %s, want %s" % (got.shape, want.shape)
                err = float(np.abs(got - want).max())
                scale = float(np.abs(want).max())
                return "ok" if err <= 1e-4 * scale else "FAIL max |error| %g > 1e-4 * %g" % (err, scale)
                """;
    }

    @Override public PythonCode numpy() { return PythonCode.unavailable("numpy has no convolution"); }

    @Override
    public PythonCode torch() {
        int s = layer.size, c = layer.channels, f = layer.filters, o = layer.out();
        String call = switch (pass) {
            case FORWARD -> "F.conv2d(x, w, b)";
            case INPUT_GRADIENT -> "torch.ops.aten.convolution_backward(g, x, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1,"
                    + " [True, False, False])[0]";
            case KERNEL_GRADIENT -> "torch.ops.aten.convolution_backward(g, x, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1,"
                    + " [False, True, False])[1]";
        };
        return PythonCode.of("""
                gen = torch.Generator().manual_seed(3)
                x = torch.rand(%d, %d, %d, %d, generator=gen) * 2 - 1
                w = torch.rand(%d, %d, 3, 3, generator=gen) * 2 - 1
                b = torch.rand(%d, generator=gen) * 2 - 1
                g = torch.rand(%d, %d, %d, %d, generator=gen) * 2 - 1
                def call(x, w, b, g):
                    return %s
                """.formatted(N, c, s, s, f, c, f, N, f, o, o, call), "call(x, w, b, g)", f64Check("call(x.double(), w.double(), b.double(), g.double())"));
    }

    @Override
    public TimedCase<NDArray> djl(NDManager manager) throws PeerUnavailable {
        throw new PeerUnavailable("not wired for DJL (the torch column runs the same oneDNN kernels)");
    }
}
