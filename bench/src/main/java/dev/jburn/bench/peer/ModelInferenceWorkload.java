package dev.jburn.bench.peer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;

import java.util.List;

/**
 * Inference of a whole model at one batch size: JBurn's {@code Model.predict} (compiled with {@code Jit}, cached per
 * input signature) beside the same architecture in PyTorch ({@code torch.nn.Sequential} under {@code torch.no_grad()},
 * eval mode). Two architectures: the MLP 784-256-10 (ReLU) and the small CNN conv 32@3×3 (ReLU) → max-pool 2 →
 * conv 64@3×3 (ReLU) → max-pool 2 → dense 128 (ReLU) → 10 on 28×28×1 (JBurn channels-last, PyTorch channels-first:
 * each runtime's native layout). Weights are each runtime's own initialization; the check is the output's shape, that
 * it is finite, and (JBurn) that the compiled call equals the eager one.
 */
public record ModelInferenceWorkload(Arch arch, int batch) implements PeerWorkload {
    /** The two models. */
    public enum Arch { MLP, CNN }

    @Override public String group() { return "models"; }

    @Override public String name() { return (arch == Arch.MLP ? "mlp" : "cnn") + " infer b" + batch; }

    @Override public String shape() {
        return arch == Arch.MLP ? "f32 [" + batch + ",784] → 256 → 10" : "f32 [" + batch + ",28,28,1] conv32-pool-conv64-pool-128-10";
    }

    @Override public double flops() {
        if (arch == Arch.MLP) return 2.0 * batch * (784 * 256 + 256 * 10);
        double conv1 = 26 * 26 * 32 * 9.0, conv2 = 11 * 11 * 64 * 32 * 9.0, dense = 1600 * 128 + 128 * 10;
        return 2.0 * batch * (conv1 + conv2 + dense);
    }

    static Model model(Arch arch) {
        return arch == Arch.MLP
                ? Model.input("image", Shape.of(-1, 784)).dense(256, Activation.RELU).dense(10)
                : Model.input("image", Shape.of(-1, 28, 28, 1)).conv2d(32, 3, Activation.RELU).maxPool2d(2)
                        .conv2d(64, 3, Activation.RELU).maxPool2d(2).flatten().dense(128, Activation.RELU).dense(10);
    }

    @Override
    public TimedCase<Tensor> jburn(Engine cpu) throws PeerUnavailable {
        Model m = model(arch);
        ModelState state = m.init(Prng.key(0).to(cpu));
        Shape in = arch == Arch.MLP ? Shape.of(batch, 784) : Shape.of(batch, 28, 28, 1);
        Tensor x = Checks.onCpu(Prng.uniformSplit(Prng.key(1), in, DType.F32, 0, 1), cpu);
        float[] eager = m.call(state.params(), state.state(), List.of(x), false, null).output().toFloatArray();
        return TimedCase.of(() -> m.predict(state, x), y -> {
            String s = Checks.shape(y.shape().dims(), batch, 10);
            if (!s.equals("ok")) return s;
            float[] v = y.toFloatArray();
            for (int i = 0; i < v.length; i++) {
                if (!Float.isFinite(v[i])) return "FAIL y[" + i + "] = " + v[i];
                if (Math.abs(v[i] - eager[i]) > 1e-4f * (1 + Math.abs(eager[i]))) return "FAIL y[" + i + "] " + v[i] + " vs eager " + eager[i];
            }
            return "ok";
        }, Checks::close, x);
    }

    @Override public PythonCode numpy() { return PythonCode.unavailable("numpy has no neural-network layers"); }

    @Override
    public PythonCode torch() {
        String net = arch == Arch.MLP
                ? "net = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10)).eval()\n"
                        + "x = torch.rand(" + batch + ", 784, generator=g)\n"
                : "net = torch.nn.Sequential(torch.nn.Conv2d(1, 32, 3), torch.nn.ReLU(), torch.nn.MaxPool2d(2),"
                        + " torch.nn.Conv2d(32, 64, 3), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),"
                        + " torch.nn.Linear(1600, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)).eval()\n"
                        + "x = torch.rand(" + batch + ", 1, 28, 28, generator=g)\n";
        return PythonCode.of("g = torch.Generator().manual_seed(1)\ntorch.manual_seed(0)\n" + net
                        + "def infer(x):\n    with torch.no_grad():\n        return net(x)\n",
                "infer(x)", """
                Y = npy(r)
                if Y.shape != (%d, 10):
                    return "FAIL shape %%s" %% (Y.shape,)
                if not np.isfinite(Y).all():
                    return "FAIL not finite"
                return "ok"
                """.formatted(batch));
    }

    @Override
    public TimedCase<NDArray> djl(NDManager manager) throws PeerUnavailable {
        throw new PeerUnavailable("not written for DJL (its model API needs a block per layer); PyTorch is the peer here");
    }
}
