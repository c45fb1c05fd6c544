package dev.jburn.examples;

import dev.jburn.DType;
import dev.jburn.LinAlg;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Callback;
import dev.jburn.train.Callbacks;
import dev.jburn.train.Fit;
import dev.jburn.train.FitResult;
import dev.jburn.train.Losses;
import dev.jburn.train.Trainer;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Linear regression, runnable: {@code ./jburn example linear-regression}. Draws {@code y = 3x - 0.5 + noise} from
 * explicit keys, fits a {@code Dense(1)} with plain SGD on the mean squared error through {@link Trainer#fit}, reads
 * the slope and intercept back from the parameters, compares them with the closed-form least-squares fit
 * ({@link LinAlg#solve} of the normal equations) and checks that both are within 0.05 of the truth.
 */
public final class LinearRegressionExample {
    private LinearRegressionExample() {}

    /** The true line. */
    public static final double SLOPE = 3.0, INTERCEPT = -0.5;
    /** How close the learned slope and intercept must be. */
    public static final double TOLERANCE = 0.05;

    /** What the example found. */
    public record Result(double slope, double intercept, double lstsqSlope, double lstsqIntercept, double finalLoss) {}

    public static void main(String[] args) { run(System.out, args.length > 0 && args[0].equals("--small")); }

    /** Runs the example, printing to {@code out}; {@code small}: fewer points and epochs. Throws {@link ExampleFailure} when the line is not found. */
    public static Result run(PrintStream out, boolean small) {
        int n = small ? 512 : 2048, epochs = small ? 10 : 30;
        // x uniform in [-1, 1), noise normal with standard deviation 0.1: the same numbers on every engine.
        Tensor x = Prng.uniform(Prng.key(0), Shape.of(n, 1), DType.F32, -1, 1).values();
        Tensor noise = Prng.normal(Prng.key(1), Shape.of(n, 1), DType.F32, 0, 0.1).values();
        Tensor y = x.multiply(SLOPE).add(INTERCEPT).add(noise);
        out.printf(Locale.ROOT, "data: %d points of %s + N(0, 0.1^2)%n", n, line(SLOPE, INTERCEPT, 1));

        Model model = Model.input("x", Shape.of(-1, 1)).dense(1).named("line");
        Trainer trainer = Trainer.of(model, Losses.mse(), Optimizers.sgd(0.1))
                .callbacks(Callbacks.onEpochEnd((c, epoch, logs) -> {
                    if ((epoch + 1) % 5 == 0) out.printf(Locale.ROOT, "epoch %d/%d: mse %.5f%n", epoch + 1, c.epochs(), logs.get("loss"));
                    return Callback.Action.CONTINUE;
                }));
        FitResult fit = trainer.fit(model.init(Prng.key(2)), TensorDataset.of(x, y), Fit.epochs(epochs).batchSize(32).quiet());

        double slope = fit.state().model().get("dense_0.kernel").toDoubleArray()[0];
        double intercept = fit.state().model().get("dense_0.bias").toDoubleArray()[0];

        // The closed form for comparison: [x 1]^T [x 1] w = [x 1]^T y, in f64.
        Tensor design = Tensor.concatenate(List.of(x, Tensor.ones(Shape.of(n, 1), DType.F32)), 1).asType(DType.F64);
        Tensor w = LinAlg.solve(design.transpose().dot(design), design.transpose().dot(y.asType(DType.F64)));
        double[] ls = w.toDoubleArray();

        out.printf(Locale.ROOT, "learned:       %s (SGD, %d epochs, final mse %.5f)%n", line(slope, intercept, 4), epochs, fit.history().last("loss"));
        out.printf(Locale.ROOT, "least squares: %s (LinAlg.solve of the normal equations)%n", line(ls[0], ls[1], 4));
        out.printf(Locale.ROOT, "truth:         %s%n", line(SLOPE, INTERCEPT, 4));
        ExampleFailure.check(Math.abs(slope - SLOPE) <= TOLERANCE, "linear-regression", "the slope is %.4f, not within %.2f of %.1f", slope, TOLERANCE, SLOPE);
        ExampleFailure.check(Math.abs(intercept - INTERCEPT) <= TOLERANCE, "linear-regression", "the intercept is %.4f, not within %.2f of %.1f",
                intercept, TOLERANCE, INTERCEPT);
        out.println("ok: slope and intercept found within " + TOLERANCE);
        return new Result(slope, intercept, ls[0], ls[1], fit.history().last("loss"));
    }

    /** {@code y = 3.0000x - 0.5000} with {@code digits} decimals. */
    static String line(double slope, double intercept, int digits) {
        return String.format(Locale.ROOT, "y = %." + digits + "fx %s %." + digits + "f", slope, intercept < 0 ? "-" : "+", Math.abs(intercept));
    }
}
