package dev.jburn.conformance;

import dev.jburn.Shape;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One generated case of the {@link LayerContract}: a model holding the layer under test, F64
 * inputs, and a direct formula for the inference-mode output written with plain Java doubles
 * (no tensor op), against which the engine's output is compared.
 *
 * @param kind      the {@link dev.jburn.nn.layers.LayerCatalog} kind the case covers
 * @param label     what the case varies (options, shapes), for failure messages
 * @param model     the model (F64 inputs, so F64 parameters)
 * @param inputs    the input values, in {@link Model#inputNames()} order
 * @param formula   the expected output of the model's first output in inference mode
 * @param training  what training mode must do instead (null: the same as inference)
 * @param gradients whether central differences apply (false for integer inputs only, or layers
 *                  whose output is piecewise constant)
 */
public record LayerCase(String kind, String label, Model model, List<Input> inputs, Formula formula,
                        TrainingCheck training, boolean gradients) {
    /**
     * An input: its values (row-major), shape, and whether it is an integer input.
     *
     * @param values  row-major values
     * @param shape   concrete shape
     * @param integer whether the input is s32 (indices) rather than f64
     */
    public record Input(double[] values, Shape shape, boolean integer) {}

    /** The direct formula of a case. */
    @FunctionalInterface
    public interface Formula {
        /** The expected output (row-major) and its shape, from the state's parameters and the inputs. */
        Expected eval(Values v);
    }

    /** An expected output. */
    public record Expected(double[] values, Shape shape) {}

    /** What training mode must do, checked with a fresh key; throws AssertionError when it does not. */
    @FunctionalInterface
    public interface TrainingCheck {
        void check(TrainingRun run);
    }

    /**
     * A training-mode run of a case: the inference output, the training output for two keys,
     * the updated state, and the case's values.
     */
    public record TrainingRun(double[] inference, double[] trainingA, double[] trainingA2, double[] trainingB,
                              Map<String, double[]> updatedState, Values values) {}

    /** Parameters, state and inputs of a case as F64 arrays with their shapes: what a formula reads. */
    public record Values(Map<String, double[]> params, Map<String, Shape> shapes, List<double[]> inputs, List<Shape> inputShapes,
                         ModelState state) {
        /** A parameter or state tensor by full name. */
        public double[] p(String name) {
            double[] v = params.get(name);
            if (v == null) throw new AssertionError("no parameter or state '" + name + "'; have " + params.keySet());
            return v;
        }

        /** Its shape. */
        public Shape shape(String name) { return shapes.get(name); }

        /** Input {@code i}. */
        public double[] x(int i) { return inputs.get(i); }

        /** Input {@code i}'s shape. */
        public Shape xShape(int i) { return inputShapes.get(i); }
    }

    /** A case with no training-mode difference and gradients checked. */
    public static LayerCase of(String kind, String label, Model model, List<Input> inputs, Formula formula) {
        return new LayerCase(kind, label, model, inputs, formula, null, true);
    }

    public LayerCase withTraining(TrainingCheck check) { return new LayerCase(kind, label, model, inputs, formula, check, gradients); }

    public LayerCase withoutGradients() { return new LayerCase(kind, label, model, inputs, formula, training, false); }

    /** Runs {@code body} and prefixes an assertion failure with this case's kind and label. */
    void describe(Consumer<LayerCase> body) {
        try {
            body.accept(this);
        } catch (AssertionError e) {
            throw new AssertionError(kind + " [" + label + "]: " + e.getMessage(), e);
        }
    }

    @Override public String toString() { return kind + " [" + label + "]"; }
}
