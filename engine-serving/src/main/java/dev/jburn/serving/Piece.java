package dev.jburn.serving;

import dev.jburn.Tensor;

/**
 * A queued part of a request: the whole request, or one of the parts an oversized request is split into
 * (at most a batch of rows each), reassembled in order by {@link PendingRequest}.
 */
record Piece(PendingRequest request, int index, Tensor input, int rows) {
    /** Whether the request was answered already (timed out, cancelled, or failed in another piece). */
    boolean isDead() { return request.future().isDone(); }
}
