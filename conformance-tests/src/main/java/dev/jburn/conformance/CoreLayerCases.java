package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Initializers;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.Custom;
import dev.jburn.nn.layers.Dense;
import dev.jburn.nn.layers.Embedding;
import dev.jburn.spi.ScalarMath;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

import static dev.jburn.conformance.LayerCases.input;
import static dev.jburn.conformance.LayerCases.map;
import static dev.jburn.conformance.LayerCases.matmul;

/** Layer cases of the core, shape, combination and activation kinds, and dropout. */
final class CoreLayerCases {
    private CoreLayerCases() {}

    static List<LayerCase> cases(long seed) {
        java.util.Random r = new java.util.Random(seed * 7919 + 1);
        List<LayerCase> c = new ArrayList<>();
        int batch = 1 + r.nextInt(3), in = 1 + r.nextInt(5), units = 1 + r.nextInt(4);

        // dense, with and without bias, rank 2 and 3, with an activation
        c.add(LayerCase.of("dense", "units " + units + ", bias", Model.input("x", Shape.of(-1, in), DType.F64).dense(units),
                List.of(input(r, batch, in)), v -> new LayerCase.Expected(
                        addBias(matmul(v.x(0), v.p("dense_0.kernel"), batch, in, units), v.p("dense_0.bias")), Shape.of(batch, units))));
        int steps = 1 + r.nextInt(3);
        c.add(LayerCase.of("dense", "rank 3, no bias, tanh",
                Model.input("x", Shape.of(-1, steps, in), DType.F64).apply(Dense.of(units).withoutBias().withActivation(Activation.TANH)),
                List.of(input(r, batch, steps, in)), v -> new LayerCase.Expected(
                        map(matmul(v.x(0), v.p("dense_0.kernel"), batch * steps, in, units), Math::tanh), Shape.of(batch, steps, units))));

        c.add(LayerCase.of("bias", "features " + in,
                Model.input("x", Shape.of(-1, in), DType.F64).apply(new dev.jburn.nn.layers.Bias(Initializers.normal(0, 1))),
                List.of(input(r, batch, in)), v -> new LayerCase.Expected(addBias(v.x(0), v.p("bias_0.bias")), Shape.of(batch, in))));

        int vocab = 2 + r.nextInt(6), dim = 1 + r.nextInt(4);
        double[] ids = new double[batch * 3];
        for (int i = 0; i < ids.length; i++) ids[i] = r.nextInt(vocab);
        c.add(LayerCase.of("embedding", "vocabulary " + vocab + ", dim " + dim,
                Model.input("ids", Shape.of(-1, 3), DType.S32).apply(Embedding.of(vocab, dim).withDType(DType.F64)),
                List.of(new LayerCase.Input(ids, Shape.of(batch, 3), true)), v -> {
                    double[] table = v.p("embedding_0.kernel");
                    double[] out = new double[ids.length * dim];
                    for (int i = 0; i < ids.length; i++) System.arraycopy(table, (int) ids[i] * dim, out, i * dim, dim);
                    return new LayerCase.Expected(out, Shape.of(batch, 3, dim));
                }));

        Custom scale = Custom.of("scale", (x, p) -> x.multiply(p.get("gamma")).add(x.sin()))
                .withParam("gamma", s -> Shape.of(s.dim(-1)), Initializers.normal(1, 0.5));
        c.add(LayerCase.of("custom", "x·gamma + sin(x)", Model.input("x", Shape.of(-1, in), DType.F64).apply(scale),
                List.of(input(r, batch, in)), v -> {
                    double[] x = v.x(0), g = v.p("scale_0.gamma"), y = new double[x.length];
                    for (int i = 0; i < x.length; i++) y[i] = x[i] * g[i % in] + Math.sin(x[i]);
                    return new LayerCase.Expected(y, Shape.of(batch, in));
                }));

        // shape and combination
        int h = 1 + r.nextInt(3), w = 1 + r.nextInt(3), ch = 1 + r.nextInt(3);
        c.add(LayerCase.of("flatten", h + "x" + w + "x" + ch, Model.input("x", Shape.of(-1, h, w, ch), DType.F64).flatten(),
                List.of(input(r, batch, h, w, ch)), v -> new LayerCase.Expected(v.x(0).clone(), Shape.of(batch, h * w * ch))));
        c.add(LayerCase.of("reshape", "to [" + (w * ch) + ", -1]", Model.input("x", Shape.of(-1, h, w, ch), DType.F64).reshape(w * ch, -1),
                List.of(input(r, batch, h, w, ch)), v -> new LayerCase.Expected(v.x(0).clone(), Shape.of(batch, w * ch, h))));
        Model a = Model.input("a", Shape.of(-1, in), DType.F64), b = Model.input("b", Shape.of(-1, in), DType.F64);
        List<LayerCase.Input> ab = List.of(input(r, batch, in), input(r, batch, in));
        c.add(LayerCase.of("add", "two inputs", Model.add(a, b), ab, v -> binary(v, batch, in, Double::sum)));
        c.add(LayerCase.of("subtract", "a - b", Model.subtract(a, b), ab, v -> binary(v, batch, in, (x, y) -> x - y)));
        c.add(LayerCase.of("multiply", "a * b", Model.multiply(a, b), ab, v -> binary(v, batch, in, (x, y) -> x * y)));
        int in2 = 1 + r.nextInt(3);
        Model b2 = Model.input("b", Shape.of(-1, in2), DType.F64);
        c.add(LayerCase.of("concatenate", "axis -1", Model.concatenate(-1, a, b2), List.of(input(r, batch, in), input(r, batch, in2)), v -> {
            double[] y = new double[batch * (in + in2)];
            for (int i = 0; i < batch; i++) {
                System.arraycopy(v.x(0), i * in, y, i * (in + in2), in);
                System.arraycopy(v.x(1), i * in2, y, i * (in + in2) + in, in2);
            }
            return new LayerCase.Expected(y, Shape.of(batch, in + in2));
        }));
        c.add(LayerCase.of("split", "second of 2 parts of axis 1", Model.input("x", Shape.of(-1, 2 * in), DType.F64).split(1, 2).get(1),
                List.of(input(r, batch, 2 * in)), v -> {
                    double[] y = new double[batch * in];
                    for (int i = 0; i < batch; i++) System.arraycopy(v.x(0), i * 2 * in + in, y, i * in, in);
                    return new LayerCase.Expected(y, Shape.of(batch, in));
                }));

        // dropout: identity in inference; zero or x/(1-rate) in training, a mask per key
        double rate = 0.25 + 0.5 * r.nextDouble();
        c.add(LayerCase.of("dropout", "rate " + rate, Model.input("x", Shape.of(-1, 64), DType.F64).dropout(rate),
                List.of(input(r, batch, 64)), v -> new LayerCase.Expected(v.x(0).clone(), Shape.of(batch, 64)))
                .withTraining(run -> checkDropout(run, rate, 1)));
        c.add(LayerCase.of("spatial_dropout", "rate " + rate, Model.input("x", Shape.of(-1, 3, 4, 16), DType.F64).spatialDropout(rate),
                List.of(input(r, batch, 3, 4, 16)), v -> new LayerCase.Expected(v.x(0).clone(), Shape.of(batch, 3, 4, 16)))
                .withTraining(run -> {
                    checkDropout(run, rate, 1);
                    double[] t = run.trainingA();
                    for (int n = 0; n < batch; n++) {
                        for (int k = 0; k < 16; k++) {
                            boolean dropped = t[n * 192 + k] == 0;
                            for (int s = 0; s < 12; s++) {
                                if ((t[n * 192 + s * 16 + k] == 0) != dropped) throw new AssertionError("sample " + n + " channel " + k + " is dropped only in part");
                            }
                        }
                    }
                }));

        // every activation as a layer
        for (Activation.Kind k : Activation.Kind.values()) {
            Activation act = k == Activation.Kind.LEAKY_RELU ? Activation.leakyRelu(0.1 + r.nextDouble() * 0.3)
                    : k == Activation.Kind.ELU ? Activation.elu(0.5 + r.nextDouble())
                    : k == Activation.Kind.CELU ? Activation.celu(0.5 + r.nextDouble()) : new Activation(k, 0);
            c.add(LayerCase.of(k.snake(), act.toString(), Model.input("x", Shape.of(-1, in), DType.F64).activation(act),
                    List.of(input(r, batch, in)), v -> new LayerCase.Expected(activation(act, v.x(0), in), Shape.of(batch, in))));
        }
        return c;
    }

    private static void checkDropout(LayerCase.TrainingRun run, double rate, int unused) {
        double[] x = run.values().x(0), t = run.trainingA();
        int zeros = 0;
        for (int i = 0; i < x.length; i++) {
            if (t[i] == 0) zeros++;
            else if (Math.abs(t[i] - x[i] / (1 - rate)) > 1e-12 * (1 + Math.abs(t[i]))) {
                throw new AssertionError("element " + i + " kept as " + t[i] + ", expected x/(1-rate) = " + x[i] / (1 - rate));
            }
        }
        if (zeros == 0 || zeros == x.length) throw new AssertionError(zeros + " of " + x.length + " dropped at rate " + rate);
        if (java.util.Arrays.equals(t, run.trainingB())) throw new AssertionError("two keys gave the same mask");
    }

    static double[] addBias(double[] y, double[] bias) {
        double[] o = y.clone();
        for (int i = 0; i < o.length; i++) o[i] += bias[i % bias.length];
        return o;
    }

    private static LayerCase.Expected binary(LayerCase.Values v, int batch, int in, java.util.function.DoubleBinaryOperator f) {
        double[] y = new double[batch * in];
        for (int i = 0; i < y.length; i++) y[i] = f.applyAsDouble(v.x(0)[i], v.x(1)[i]);
        return new LayerCase.Expected(y, Shape.of(batch, in));
    }

    /** The activations' textbook formulas, in doubles. */
    static double[] activation(Activation a, double[] x, int lastAxis) {
        double al = a.alpha();
        double selA = 1.6732632423543772848170429916717, selS = 1.0507009873554804934193349852946;
        DoubleUnaryOperator softplus = t -> Math.log1p(Math.exp(t));
        DoubleUnaryOperator sigmoid = t -> 1 / (1 + Math.exp(-t));
        DoubleUnaryOperator relu6 = t -> Math.min(Math.max(t, 0), 6);
        DoubleUnaryOperator f = switch (a.kind()) {
            case LINEAR -> t -> t;
            case RELU -> t -> Math.max(t, 0);
            case RELU6 -> relu6;
            case LEAKY_RELU -> t -> t > 0 ? t : al * t;
            case ELU -> t -> t > 0 ? t : al * Math.expm1(t);
            case SELU -> t -> selS * (t > 0 ? t : selA * Math.expm1(t));
            case CELU -> t -> t > 0 ? t : al * Math.expm1(t / al);
            case GELU -> t -> 0.5 * t * (1 + ScalarMath.erf(t / Math.sqrt(2)));
            case GELU_TANH -> t -> 0.5 * t * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (t + 0.044715 * t * t * t)));
            case SILU -> t -> t * sigmoid.applyAsDouble(t);
            case MISH -> t -> t * Math.tanh(softplus.applyAsDouble(t));
            case SOFTPLUS -> softplus;
            case SOFTSIGN -> t -> t / (1 + Math.abs(t));
            case SIGMOID -> sigmoid;
            case HARD_SIGMOID -> t -> relu6.applyAsDouble(t + 3) / 6;
            case HARD_SWISH -> t -> t * relu6.applyAsDouble(t + 3) / 6;
            case TANH -> Math::tanh;
            case LOG_SIGMOID -> t -> -Math.log1p(Math.exp(-t));
            case SOFTMAX, LOG_SOFTMAX -> null;
        };
        if (f != null) return map(x, f);
        double[] y = new double[x.length];
        for (int row = 0; row < x.length / lastAxis; row++) {
            double m = Double.NEGATIVE_INFINITY, s = 0;
            for (int i = 0; i < lastAxis; i++) m = Math.max(m, x[row * lastAxis + i]);
            for (int i = 0; i < lastAxis; i++) s += Math.exp(x[row * lastAxis + i] - m);
            for (int i = 0; i < lastAxis; i++) {
                double ls = x[row * lastAxis + i] - m - Math.log(s);
                y[row * lastAxis + i] = a.kind() == Activation.Kind.SOFTMAX ? Math.exp(ls) : ls;
            }
        }
        return y;
    }
}
