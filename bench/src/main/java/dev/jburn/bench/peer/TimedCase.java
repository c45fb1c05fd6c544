package dev.jburn.bench.peer;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A prepared call to time in the JVM: {@link #run()} does the work once and returns its result, {@link #release}
 * frees a result (the harness frees each one before the next call, as a program would), {@link #check} tests the last
 * result against a cheap invariant, {@link #close()} frees the inputs.
 */
public interface TimedCase<R> extends AutoCloseable {
    R run();

    void release(R result);

    /** {@code "ok"}, or a text saying what is wrong. */
    String check(R result);

    @Override void close();

    /** A case from lambdas; {@code free} releases results and, at {@link #close()}, each of {@code inputs}. */
    @SafeVarargs
    static <R> TimedCase<R> of(Supplier<R> run, Function<R, String> check, Consumer<R> free, R... inputs) {
        return new TimedCase<>() {
            @Override public R run() { return run.get(); }

            @Override public void release(R result) { if (result != null) free.accept(result); }

            @Override public String check(R result) { return check.apply(result); }

            @Override public void close() { for (R input : inputs) free.accept(input); }
        };
    }
}
