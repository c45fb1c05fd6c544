package dev.jburn.data;

import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Tensor;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Batches of a {@link TensorDataset}, epoch by epoch, prepared on one background daemon thread
 * while the caller works on the current batch (at most two batches wait in a queue).
 *
 * <pre>{@code
 * try (BatchLoader loader = BatchLoader.of(train, 128).shuffle(Prng.key(0)).dropLast(true)) {
 *     for (int epoch = 0; epoch < 5; epoch++) {
 *         for (TensorDataset batch : loader.epoch(epoch)) step(batch.x(), batch.y());
 *     }
 * }
 * }</pre>
 *
 * With a key, epoch {@code e} is shuffled with {@code Prng.foldIn(key, e)}: the same key and
 * epoch give the same batches in every run. Without a key the order is the dataset's. The last,
 * short batch is kept unless {@link #dropLast(boolean) dropLast}. Starting an epoch stops the one
 * still running; {@link #close()} stops the thread. A failure on the background thread is thrown
 * in the caller, from {@code next()}, as a {@link JBurnException} whose cause is the failure.
 * Batches are made on the background thread, so a {@code Tensor.scope()} of the caller does
 * not track them: close them, or let the cleaner free them.
 */
public final class BatchLoader implements AutoCloseable {
    private final TensorDataset data;
    private final int batchSize;
    private final Tensor key;
    private final boolean dropLast;
    private ExecutorService worker;
    private Producer running;
    private boolean closed;

    private BatchLoader(TensorDataset data, int batchSize, Tensor key, boolean dropLast) {
        if (data == null) throw new JBurnException("loader", "a dataset is required");
        if (batchSize < 1) throw new JBurnException("loader", "batch size must be >= 1, got " + batchSize);
        this.data = data;
        this.batchSize = batchSize;
        this.key = key;
        this.dropLast = dropLast;
    }

    /** Batches of {@code batchSize} examples in the dataset's order, the last short batch kept. */
    public static BatchLoader of(TensorDataset data, int batchSize) { return new BatchLoader(data, batchSize, null, false); }

    /** A new loader that shuffles each epoch with a key folded from {@code key} (null: no shuffle). */
    public BatchLoader shuffle(Tensor key) { return new BatchLoader(data, batchSize, key, dropLast); }

    /** A new loader that drops ({@code true}) or keeps the last, short batch. */
    public BatchLoader dropLast(boolean drop) { return new BatchLoader(data, batchSize, key, drop); }

    /** Batches per epoch. */
    public int batchCount() {
        int n = data.size();
        return dropLast ? n / batchSize : (n + batchSize - 1) / batchSize;
    }

    /** The batches of epoch {@code epoch}; each {@code iterator()} starts (or restarts) producing them. */
    public Iterable<TensorDataset> epoch(int epoch) {
        if (epoch < 0) throw new JBurnException("loader", "epoch must be >= 0, got " + epoch);
        return () -> start(epoch);
    }

    private synchronized Iterator<TensorDataset> start(int epoch) {
        if (closed) throw new JBurnException("loader", "the loader is closed");
        if (running != null) running.cancel();
        if (worker == null) {
            worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "jburn-batch-loader");
                t.setDaemon(true);
                return t;
            });
        }
        Producer p = new Producer(epoch);
        p.future = worker.submit(p);
        running = p;
        return p;
    }

    /** Stops the background thread; batches already handed out stay valid. Idempotent. */
    @Override
    public void close() {
        ExecutorService w;
        synchronized (this) {
            if (closed) return;
            closed = true;
            if (running != null) running.cancel();
            w = worker;
        }
        if (w == null) return;
        w.shutdownNow();
        try {
            w.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Failure(Throwable cause) {}

    /** One epoch: the background task fills the queue, the caller's iterator drains it. */
    private final class Producer implements Runnable, Iterator<TensorDataset> {
        private final int epoch;
        private final int total = batchCount();
        private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(2);
        private volatile boolean cancelled;
        private volatile Future<?> future;
        private int taken;
        private boolean failed;

        Producer(int epoch) { this.epoch = epoch; }

        void cancel() {
            cancelled = true;
            Future<?> f = future;
            if (f != null) f.cancel(true);
        }

        @Override public void run() {
            try {
                int[] order = key == null ? null : TensorDataset.permutation(Prng.foldIn(key, epoch), data.size());
                for (int b = 0; b < total && !cancelled; b++) {
                    int start = b * batchSize, length = Math.min(batchSize, data.size() - start);
                    queue.put(order == null ? data.batch(start, length) : data.rows(Arrays.copyOfRange(order, start, start + length)));
                }
            } catch (InterruptedException e) {
                // cancelled
            } catch (Throwable t) {
                try {
                    if (!cancelled) queue.put(new Failure(t));
                } catch (InterruptedException e) {
                    // cancelled while reporting
                }
            }
        }

        /** More batches are due; after a failure was thrown, none. */
        @Override public boolean hasNext() { return taken < total && !failed; }

        @Override public TensorDataset next() {
            if (!hasNext()) throw new NoSuchElementException("epoch " + epoch + " has no more batches");
            try {
                while (true) {
                    if (cancelled) throw new JBurnException("loader", "epoch " + epoch + " was stopped (the loader was closed or another epoch started)");
                    Object o = queue.poll(50, TimeUnit.MILLISECONDS);
                    if (o instanceof Failure(Throwable cause)) {
                        failed = true;
                        throw new JBurnException("loader", "preparing batch " + taken + " of epoch " + epoch + " failed: " + cause.getMessage(), cause);
                    }
                    if (o != null) {
                        taken++;
                        return (TensorDataset) o;
                    }
                    if (future.isDone() && queue.isEmpty()) {
                        throw new JBurnException("loader", "the producer of epoch " + epoch + " ended after " + taken + " of " + total + " batches");
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JBurnException("loader", "interrupted while waiting for batch " + taken + " of epoch " + epoch, e);
            }
        }
    }
}
