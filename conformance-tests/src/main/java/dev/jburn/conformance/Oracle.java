package dev.jburn.conformance;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.reference.ReferenceProvider;
import dev.jburn.spi.EngineConfig;
import org.junit.jupiter.api.Assertions;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The oracle every property compares against: the reference engine's scalar kernels (vector
 * kernels off, one thread), one shared instance. {@link #check} runs an op on the engine under
 * test and on the oracle and asserts both agree — on the values within a {@link Tolerance},
 * on dtype and shape, and on failure: when the oracle throws a {@link JBurnException}, the
 * engine must throw one naming the same op.
 *
 * <pre>{@code
 * Oracle.check(engine(), x, Tolerance.EXACT, t -> t.asType(DType.S8));
 * Oracle.check(engine(), pair, Tolerance.ARITHMETIC, Tensor::add);
 * }</pre>
 */
public final class Oracle {
    private Oracle() {}

    private static final class Holder {
        static final Engine ENGINE = Engine.create(new ReferenceProvider(),
                EngineConfig.defaults().withVectorKernels(false).withThreads(1));
    }

    /** The shared scalar reference engine. */
    public static Engine engine() { return Holder.ENGINE; }

    /** {@code op(x)} on {@code engine} matches {@code op(x)} on the oracle. */
    public static void check(Engine engine, TensorCase x, Tolerance tol, UnaryOperator<Tensor> op) {
        check(engine, x, tol, List.of(x), in -> List.of(op.apply(in.get(0))));
    }

    /** {@code op(x)} on {@code engine} matches the oracle; {@code label} describes the case in failure messages. */
    public static void check(Engine engine, String label, TensorCase x, Tolerance tol, UnaryOperator<Tensor> op) {
        check(engine, label, tol, List.of(x), in -> List.of(op.apply(in.get(0))));
    }

    /** {@code op(a, b)} on {@code engine} matches {@code op(a, b)} on the oracle. */
    public static void check(Engine engine, TensorPair p, Tolerance tol, BinaryOperator<Tensor> op) {
        check(engine, p, tol, List.of(p.a(), p.b()), in -> List.of(op.apply(in.get(0), in.get(1))));
    }

    /**
     * The general form: {@code op} gets the inputs as tensors on one engine and returns one or
     * more results; each result on {@code engine} must match the oracle's and live on {@code engine}.
     *
     * @param description what the failure message shows as the case (usually the generated case)
     */
    public static void check(Engine engine, Object description, Tolerance tol, List<TensorCase> inputs,
                             Function<List<Tensor>, List<Tensor>> op) {
        Outcome expected = run(engine(), inputs, op);
        Outcome actual = run(engine, inputs, op);
        String what = "case: " + description;
        if (expected.error != null || actual.error != null) {
            if (expected.error == null) {
                Assertions.fail(what + "\n  the oracle succeeded but engine '" + engine.name() + "' threw: " + actual.error, actual.error);
            }
            if (actual.error == null) {
                Assertions.fail(what + "\n  the oracle threw \"" + expected.error.getMessage() + "\" but engine '"
                        + engine.name() + "' returned " + actual.results);
            }
            if (!expected.error.op().equals(actual.error.op())) {
                Assertions.fail(what + "\n  the oracle's error names op '" + expected.error.op() + "' but engine '"
                        + engine.name() + "' threw: " + actual.error, actual.error);
            }
            return;
        }
        if (expected.results.size() != actual.results.size()) {
            Assertions.fail(what + "\n  " + actual.results.size() + " results, the oracle gave " + expected.results.size());
        }
        for (int i = 0; i < expected.results.size(); i++) {
            Tensor got = actual.results.get(i);
            String label = expected.results.size() == 1 ? what : what + " (result " + i + ")";
            if (got.engine() != engine) {
                Assertions.fail(label + "\n  the result lives on engine '" + got.engine().name() + "', not on the engine under test");
            }
            TensorAssert.assertClose(label, expected.results.get(i), got, tol, inputs.toArray(TensorCase[]::new));
        }
    }

    /**
     * {@code op} must fail on the oracle and on {@code engine} with a {@link JBurnException}
     * naming {@code opName} (the op the user called, not a primitive it is built from) whose
     * reason mentions each of {@code mentions} (shapes, axes, values).
     *
     * <pre>{@code
     * Oracle.checkFails(engine(), c, List.of(c.x()), "sum", in -> in.get(0).sum(new int[] {7}), "7");
     * }</pre>
     */
    public static void checkFails(Engine engine, Object description, List<TensorCase> inputs, String opName,
                                  Function<List<Tensor>, ?> op, String... mentions) {
        List<Engine> engines = engine == engine() ? List.of(engine) : List.of(engine(), engine);
        for (Engine e : engines) {
            String who = e == engine() ? "the oracle" : "engine '" + e.name() + "'";
            String what = "case: " + description + "\n  " + who;
            List<Tensor> in = new ArrayList<>(inputs.size());
            for (TensorCase c : inputs) in.add(c.on(e));
            Object result;
            try {
                result = op.apply(in);
            } catch (JBurnException ex) {
                if (!ex.op().equals(opName)) {
                    Assertions.fail(what + " threw an error naming op '" + ex.op() + "', expected '" + opName + "': " + ex, ex);
                }
                for (String m : mentions) {
                    if (!ex.reason().contains(m)) Assertions.fail(what + ": the reason should mention " + m + ": " + ex.reason(), ex);
                }
                continue;
            }
            Assertions.fail(what + " returned " + result + " instead of throwing a JBurnException naming '" + opName + "'");
        }
    }

    /** {@code call} must throw a {@link JBurnException} naming {@code opName} (for failures the oracle cannot share, such as mixing engines). */
    public static void assertFailsNaming(String opName, Object description, Supplier<?> call) {
        Object result;
        try {
            result = call.get();
        } catch (JBurnException ex) {
            if (!ex.op().equals(opName)) Assertions.fail("case: " + description + "\n  threw an error naming op '" + ex.op() + "', expected '" + opName + "': " + ex, ex);
            return;
        }
        Assertions.fail("case: " + description + "\n  returned " + result + " instead of throwing a JBurnException naming '" + opName + "'");
    }

    private record Outcome(List<Tensor> results, JBurnException error) {}

    private static Outcome run(Engine e, List<TensorCase> inputs, Function<List<Tensor>, List<Tensor>> op) {
        List<Tensor> in = new ArrayList<>(inputs.size());
        for (TensorCase c : inputs) in.add(c.on(e));
        try {
            return new Outcome(op.apply(in), null);
        } catch (JBurnException ex) {
            return new Outcome(List.of(), ex);
        }
    }
}
