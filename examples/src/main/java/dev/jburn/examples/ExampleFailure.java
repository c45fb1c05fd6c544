package dev.jburn.examples;

import java.util.Locale;

/**
 * Thrown by an example program whose promised outcome was not reached (a slope not found, an accuracy too low, two
 * loads that differ): each example checks its own result, so {@code jburn example NAME} and CI fail loudly instead of
 * printing a wrong number. The message says what was expected and what came out.
 */
public final class ExampleFailure extends RuntimeException {
    /** A failure of {@code example} with {@code message}. */
    public ExampleFailure(String example, String message) { super(example + ": " + message); }

    /** Throws an {@link ExampleFailure} of {@code example} unless {@code ok}; {@code message} is a format string. */
    public static void check(boolean ok, String example, String message, Object... args) {
        if (!ok) throw new ExampleFailure(example, String.format(Locale.ROOT, message, args));
    }
}
