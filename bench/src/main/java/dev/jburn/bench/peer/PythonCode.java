package dev.jburn.bench.peer;

/**
 * A workload's Python side for one peer. {@code setup} is statements (inputs), {@code run} an expression (the timed
 * call), {@code check} statements that end in {@code return "ok"} or a failure text, given the last result as
 * {@code r}. The check code may use the harness helpers {@code npy}, {@code close_to} and {@code summarize}.
 * {@link #unavailable(String)} marks work a peer cannot do (an "n/a" cell with the reason).
 */
public record PythonCode(String setup, String run, String check, String unavailableReason) {
    public static PythonCode of(String setup, String run, String check) { return new PythonCode(setup, run, check, null); }

    public static PythonCode unavailable(String reason) { return new PythonCode(null, null, null, reason); }

    public boolean available() { return unavailableReason == null; }
}
