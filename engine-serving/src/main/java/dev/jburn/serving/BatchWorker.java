package dev.jburn.serving;

import dev.jburn.Tensor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One worker of a {@link Serving}, on one engine's {@link Partition}: gathers pieces from the shared queue into a batch — until it is full, or until the batch timeout after
 * its first piece was queued (at once when that has passed already, as when every worker was busy) — runs it, and
 * answers each piece. A failed batch is re-run piece by piece, so that only the failing request fails.
 */
final class BatchWorker implements Runnable {
    private final Serving serving;
    private final int index;
    private final Partition partition;
    private final ServingMetrics metrics;
    private Piece held;

    /** Worker {@code index}, running its batches on {@code partition}'s engine. */
    BatchWorker(Serving serving, int index, Partition partition) {
        this.serving = serving;
        this.index = index;
        this.partition = partition;
        this.metrics = serving.metrics();
    }

    @Override
    public void run() {
        while (!serving.stopped()) {
            List<Piece> batch;
            try {
                batch = gather();
            } catch (InterruptedException e) {
                if (serving.stopped()) break;
                continue;
            }
            if (batch.isEmpty()) {
                serving.runningBatches().decrementAndGet();
                continue;
            }
            try {
                runBatch(batch);
            } finally {
                serving.runningBatches().decrementAndGet();
            }
        }
        if (held != null) {
            held.request().fail(new ServingException(ServingException.Kind.UNAVAILABLE, "the serving shut down before the request ran"));
            held.input().close();
        }
    }

    /** The next batch; counts itself as running before it takes its first piece, so a drain never sees it missing. */
    private List<Piece> gather() throws InterruptedException {
        Piece first = held;
        held = null;
        while (first == null || first.isDead()) {
            if (first != null) first.input().close();
            first = serving.queue().poll(50, TimeUnit.MILLISECONDS);
            if (first == null && serving.stopped()) throw new InterruptedException();
        }
        serving.runningBatches().incrementAndGet();
        List<Piece> batch = new ArrayList<>();
        batch.add(first);
        int rows = first.rows(), max = serving.batchSize();
        long fireAt = first.request().enqueuedNanos() + serving.batchTimeoutNanos();
        while (rows < max) {
            long wait = serving.draining() ? 0 : fireAt - System.nanoTime();
            Piece p = wait <= 0 ? serving.queue().poll() : serving.queue().poll(wait, TimeUnit.NANOSECONDS);
            if (p == null) break;
            if (p.isDead()) {
                p.input().close();
                continue;
            }
            if (rows + p.rows() > max) {
                held = p;
                break;
            }
            batch.add(p);
            rows += p.rows();
        }
        return batch;
    }

    private void runBatch(List<Piece> batch) {
        long start = System.nanoTime();
        List<Piece> live = new ArrayList<>();
        for (Piece p : batch) {
            if (p.isDead()) {
                p.input().close();
                continue;
            }
            if (start > p.request().deadlineNanos()) {
                // past its deadline: answered as timed out by the deadline timer, never run
                p.input().close();
                continue;
            }
            live.add(p);
            metrics.queued((start - p.request().enqueuedNanos()) / 1e9);
        }
        if (live.isEmpty()) return;
        int rows = 0;
        for (Piece p : live) rows += p.rows();
        Tensor x = null, y = null;
        try {
            x = live.size() == 1 ? live.getFirst().input() : Tensor.concatenate(live.stream().map(Piece::input).toList(), 0);
            y = serving.runRows(partition, x, rows);
            metrics.batch(index, rows, serving.bucketFor(rows), (System.nanoTime() - start) / 1e9);
            int offset = 0;
            for (Piece p : live) {
                answer(p, live.size() == 1 ? y : Serving.slice(y, offset, p.rows()));
                offset += p.rows();
            }
            if (live.size() == 1) y = null; // handed to the request
        } catch (RuntimeException e) {
            if (live.size() == 1) {
                fail(live.getFirst(), e);
            } else {
                for (Piece p : live) runAlone(p);
            }
        } finally {
            if (y != null) y.close();
            if (x != null && live.size() > 1) x.close();
            for (Piece p : live) p.input().close();
        }
    }

    private void runAlone(Piece p) {
        long start = System.nanoTime();
        try {
            Tensor y = serving.runRows(partition, p.input(), p.rows());
            metrics.batch(index, p.rows(), serving.bucketFor(p.rows()), (System.nanoTime() - start) / 1e9);
            answer(p, y);
        } catch (RuntimeException e) {
            fail(p, e);
        }
    }

    private void answer(Piece p, Tensor rows) {
        p.request().complete(p.index(), rows, () -> metrics.answered((System.nanoTime() - p.request().enqueuedNanos()) / 1e9));
    }

    private void fail(Piece p, RuntimeException e) {
        ServingException err = e instanceof ServingException s ? s
                : new ServingException(ServingException.Kind.FAILED, "running the request on model '" + serving.name() + "' failed: " + e.getMessage(), e);
        if (!p.request().future().isDone()) metrics.error(err.kind());
        p.request().fail(err);
    }
}
