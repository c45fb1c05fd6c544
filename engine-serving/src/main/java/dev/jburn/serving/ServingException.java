package dev.jburn.serving;

import dev.jburn.JBurnException;

/**
 * Why a served request was not answered with a result: the {@link Kind} says what an HTTP front end maps to a
 * status code (rejected → 429, timed out → 504, shutting down → 503, bad input → 400, failed → 500).
 */
public final class ServingException extends JBurnException {
    /** What went wrong. */
    public enum Kind {
        /** The input does not fit the model (shape, dtype, rank, non-finite values under that policy). */
        BAD_INPUT,
        /** The queue was full: the request was never queued. */
        REJECTED,
        /** The request's deadline passed before it ran: it was never run. */
        TIMED_OUT,
        /** The serving is not accepting requests (not started, draining or closed). */
        UNAVAILABLE,
        /** Running the request failed (an engine fault); the other requests of its batch were not affected. */
        FAILED
    }

    private final Kind kind;

    ServingException(Kind kind, String message) {
        super("serving", message);
        this.kind = kind;
    }

    ServingException(Kind kind, String message, Throwable cause) {
        super("serving", message, cause);
        this.kind = kind;
    }

    /** What went wrong. */
    public Kind kind() { return kind; }
}
