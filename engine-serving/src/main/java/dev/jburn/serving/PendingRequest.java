package dev.jburn.serving;

import dev.jburn.Tensor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** One submitted request: its future, when it was queued, its deadline, and the results of its pieces so far. */
final class PendingRequest {
    private final CompletableFuture<Tensor> future = new CompletableFuture<>();
    private final long enqueuedNanos;
    private final long deadlineNanos;
    private final Tensor[] parts;
    private int remaining;

    PendingRequest(int pieces, long enqueuedNanos, long deadlineNanos) {
        this.parts = new Tensor[pieces];
        this.remaining = pieces;
        this.enqueuedNanos = enqueuedNanos;
        this.deadlineNanos = deadlineNanos;
    }

    CompletableFuture<Tensor> future() { return future; }

    long enqueuedNanos() { return enqueuedNanos; }

    /** {@link Long#MAX_VALUE} for none. */
    long deadlineNanos() { return deadlineNanos; }

    /**
     * Records piece {@code i}'s output; the last one completes the future with the parts joined in order. {@code
     * beforeAnswer} runs just before the future completes with a result (once per request), so that what it records
     * (the metrics) is visible to a caller as soon as its {@code get()} returns.
     */
    void complete(int i, Tensor output, Runnable beforeAnswer) {
        Tensor whole = null;
        List<Tensor> toClose = List.of();
        synchronized (this) {
            if (future.isDone()) {
                toClose = List.of(output);
            } else {
                parts[i] = output;
                if (--remaining > 0) return;
                if (parts.length == 1) {
                    whole = parts[0];
                } else {
                    whole = Tensor.concatenate(List.of(parts), 0);
                    toClose = new ArrayList<>(List.of(parts));
                }
            }
        }
        for (Tensor t : toClose) t.close();
        if (whole == null) return;
        // a cancellation racing this line still finds the request counted as answered: its result was computed
        beforeAnswer.run();
        if (!future.complete(whole)) whole.close();
    }

    /** Fails the request (once); outputs of pieces already done are freed. */
    void fail(Throwable error) {
        if (!future.completeExceptionally(error)) return;
        synchronized (this) {
            for (int k = 0; k < parts.length; k++) {
                if (parts[k] != null) parts[k].close();
                parts[k] = null;
            }
        }
    }
}
