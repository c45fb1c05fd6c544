package dev.jburn;

/**
 * The one exception JBurn ops throw on bad input: it names the op, the reason, and the
 * shapes, dtypes or axes involved.
 *
 * <pre>{@code
 * try { a.add(b); } catch (JBurnException e) { System.err.println(e.op() + " failed: " + e.reason()); }
 * }</pre>
 */
public class JBurnException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String op;
    private final String reason;

    public JBurnException(String op, String reason) {
        super(op + ": " + reason);
        this.op = op;
        this.reason = reason;
    }

    public JBurnException(String op, String reason, Throwable cause) {
        super(op + ": " + reason, cause);
        this.op = op;
        this.reason = reason;
    }

    /** The op that refused, e.g. {@code "add"}, {@code "reshape"}, {@code "engine"}. */
    public String op() { return op; }

    /** Why, with the shapes, dtypes or axes involved. */
    public String reason() { return reason; }
}
