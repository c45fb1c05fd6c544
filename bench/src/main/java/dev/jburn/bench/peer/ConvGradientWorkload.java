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
 * A cotangent of the ResNet-like 3×3 convolution ({@link ConvWorkload}: input NCHW {@code [8,64,56,56]}, kernel OIHW
 * {@code [64,64,3,3]}, stride 1, same padding): of the input ({@code [8,64,56,56]}) or of the kernel ({@code [64,64,3,3]})
 * for an output cotangent {@code g}. JBurn runs it as a train step would: a Jit-compiled {@code Autodiff.grad} of
 * {@code Σ conv(x, k)·g}, canonical layouts (so the cpu engine's canonical conv kernels take it, not the channels-last
 * ones); PyTorch {@code aten::convolution_backward} with one output asked for (oneDNN). Checks: the whole result against
 * the same computed in F64 (JBurn: eagerly; PyTorch: in double), within 1e-4 of the largest |value|.
 */
public record ConvGradientWorkload(CnnConvWorkload.Pass pass) implements PeerWorkload {
    static final int N = ConvWorkload.N, C = ConvWorkload.C, H = ConvWorkload.H, W = ConvWorkload.W, O = ConvWorkload.O, K = ConvWorkload.K;

    /** Both cotangents. */
    public static List<ConvGradientWorkload> all() {
        return List.of(new ConvGradientWorkload(CnnConvWorkload.Pass.INPUT_GRADIENT),
                new ConvGradientWorkload(CnnConvWorkload.Pass.KERNEL_GRADIENT));
    }

    public ConvGradientWorkload {
        if (pass == CnnConvWorkload.Pass.FORWARD) throw new IllegalArgumentException("the forward conv is ConvWorkload");
    }

    @Override public String group() { return "conv"; }

    @Override public String name() { return pass == CnnConvWorkload.Pass.INPUT_GRADIENT ? "conv 3x3 dx" : "conv 3x3 dk"; }

    @Override public String shape() { return "f32 [8,64,56,56] * [64,64,3,3], stride 1, pad 1"; }

    @Override public double flops() { return 2.0 * N * O * H * W * C * K * K; }

    @Override
    public TimedCase<Tensor> jburn(Engine cpu) {
        Tensor x, k, g;
        try (var scope = Tensor.scope()) { // frees the keys
            Tensor key = Prng.key(4);
            x = scope.keep(Checks.onCpu(Prng.uniformSplit(key, Shape.of(N, C, H, W), DType.F32, -1, 1), cpu));
            k = scope.keep(Checks.onCpu(Prng.uniformSplit(Prng.foldIn(key, 1), Shape.of(O, C, K, K), DType.F32, -1, 1), cpu));
            g = scope.keep(Checks.onCpu(Prng.uniformSplit(Prng.foldIn(key, 3), Shape.of(N, O, H, W), DType.F32, -1, 1), cpu));
        }
        Function<List<Tensor>, List<Tensor>> fn = fn();
        CompiledFunction jit = Jit.compileList(fn);
        List<Tensor> in = List.of(x, k, g);
        return TimedCase.of(() -> jit.apply(in).getFirst(), r -> CnnConvWorkload.check(fn, in, r), Tensor::close, x, k, g);
    }

    /** The function of {@code [x, k, g]} that runs this cotangent (of {@code Σ conv(x, k)·g}). */
    private Function<List<Tensor>, List<Tensor>> fn() {
        ConvOptions same = ConvOptions.defaults().withPadding(Padding.SAME);
        return pass == CnnConvWorkload.Pass.INPUT_GRADIENT
                ? in -> List.of(Autodiff.grad((Tensor x) -> x.conv(in.get(1), same).multiply(in.get(2)).sum()).apply(in.get(0)))
                : in -> List.of(Autodiff.grad((Tensor k) -> in.get(0).conv(k, same).multiply(in.get(2)).sum()).apply(in.get(1)));
    }

    @Override public PythonCode numpy() { return PythonCode.unavailable("numpy has no convolution"); }

    @Override
    public PythonCode torch() {
        String which = pass == CnnConvWorkload.Pass.INPUT_GRADIENT ? "[True, False, False])[0]" : "[False, True, False])[1]";
        return PythonCode.of("""
                gen = torch.Generator().manual_seed(4)
                x = torch.rand(8, 64, 56, 56, generator=gen) * 2 - 1
                w = torch.rand(64, 64, 3, 3, generator=gen) * 2 - 1
                g = torch.rand(8, 64, 56, 56, generator=gen) * 2 - 1
                def call(x, w, g):
                    return torch.ops.aten.convolution_backward(g, x, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, %s
                """.formatted(which), "call(x, w, g)", CnnConvWorkload.f64Check("call(x.double(), w.double(), g.double())"));
    }

    @Override
    public TimedCase<NDArray> djl(NDManager manager) throws PeerUnavailable {
        throw new PeerUnavailable("not wired for DJL (the torch column runs the same oneDNN kernels)");
    }
}
