package dev.jburn.dist;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.spi.TensorBuffers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Replicas as threads of one JVM, one communicator per thread. Each collective is two barriers: every replica
 * posts its tensors, each one computes its own result from all of them (added in rank order, so the bits do not
 * depend on thread timing), and the second barrier keeps the posted tensors alive until everyone has read them.
 * Tensors may live on different engines (one per device); they are copied to the reader's engine.
 *
 * <pre>{@code
 * List<ThreadCommunicator> group = ThreadCommunicator.group(4);
 * // in replica thread r:
 * Tensor mean = group.get(r).allReduce(grad, ReduceOp.AVERAGE);
 * }</pre>
 *
 * A replica that fails calls {@link #abort()}; the others' collectives then fail instead of waiting, as they do
 * after the timeout (default 10 minutes) when a replica never comes.
 */
public final class ThreadCommunicator implements Communicator {
    private final Group group;
    private final int rank;
    private boolean closed;

    private ThreadCommunicator(Group group, int rank) {
        this.group = group;
        this.rank = rank;
    }

    /** A group of {@code n} replicas (index = rank), waiting at most 10 minutes for each other. */
    public static List<ThreadCommunicator> group(int n) { return group(n, Duration.ofMinutes(10)); }

    /** A group of {@code n} replicas whose collectives fail after waiting {@code timeout} for the others. */
    public static List<ThreadCommunicator> group(int n, Duration timeout) {
        if (n < 1) throw new JBurnException("threadCommunicator", "a group needs at least one replica, got " + n);
        if (timeout == null || timeout.isNegative() || timeout.isZero()) throw new JBurnException("threadCommunicator", "the timeout must be positive, got " + timeout);
        Group g = new Group(n, timeout);
        List<ThreadCommunicator> out = new ArrayList<>();
        for (int r = 0; r < n; r++) out.add(new ThreadCommunicator(g, r));
        return List.copyOf(out);
    }

    @Override public int rank() { return rank; }

    @Override public int size() { return group.n; }

    @Override
    public List<Tensor> allReduce(List<Tensor> tensors, ReduceOp op) {
        if (op == null) throw new JBurnException("allReduce", "the reduce op must not be null");
        Collectives.check("allReduce", tensors, op);
        List<List<Tensor>> all = exchange("allReduce", tensors);
        try {
            return Collectives.reduce(all, op, Collectives.engines(tensors));
        } finally {
            group.await("allReduce");
        }
    }

    @Override
    public List<Tensor> broadcast(List<Tensor> tensors, int root) {
        Collectives.check("broadcast", tensors, null);
        Collectives.checkRoot("broadcast", root, group.n);
        List<List<Tensor>> all = exchange("broadcast", tensors);
        try {
            List<Tensor> src = all.get(root), out = new ArrayList<>();
            for (int i = 0; i < tensors.size(); i++) out.add(TensorBuffers.copy(src.get(i), tensors.get(i).engine()));
            return out;
        } finally {
            group.await("broadcast");
        }
    }

    @Override
    public void barrier() {
        exchange("barrier", List.of());
        group.await("barrier");
    }

    /** Posts {@code mine}, waits for everyone, and returns every replica's list after checking it matches. */
    @SuppressWarnings("unchecked")
    private List<List<Tensor>> exchange(String op, List<Tensor> mine) {
        if (closed) throw new JBurnException(op, "replica " + rank + "'s communicator is closed");
        group.slots[rank] = List.copyOf(mine);
        group.await(op);
        List<List<Tensor>> all = new ArrayList<>();
        for (int r = 0; r < group.n; r++) all.add((List<Tensor>) group.slots[r]);
        for (int r = 0; r < group.n; r++) {
            if (r != rank) Collectives.checkSameLayout(op, rank, mine, r, Collectives.TensorSpec.of(all.get(r)));
        }
        return all;
    }

    @Override public void abort() { group.abort(); }

    @Override public String describe() { return "threads (" + group.n + " replicas in one JVM)"; }

    @Override public void close() { closed = true; }

    private static final class Group {
        final int n;
        final long timeoutNanos;
        final CyclicBarrier barrier;
        final Object[] slots;
        volatile boolean aborted;

        Group(int n, Duration timeout) {
            this.n = n;
            this.timeoutNanos = timeout.toNanos();
            this.barrier = new CyclicBarrier(n);
            this.slots = new Object[n];
        }

        void await(String op) {
            if (aborted) throw new JBurnException(op, "the replica group was aborted (a replica failed)");
            try {
                barrier.await(timeoutNanos, TimeUnit.NANOSECONDS);
            } catch (BrokenBarrierException e) {
                throw new JBurnException(op, aborted ? "the replica group was aborted (a replica failed)" : "a replica left the group");
            } catch (TimeoutException e) {
                throw new JBurnException(op, "replicas did not all arrive within " + Duration.ofNanos(timeoutNanos));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JBurnException(op, "interrupted while waiting for the other replicas");
            }
        }

        void abort() {
            aborted = true;
            barrier.reset(); // waiting replicas get BrokenBarrierException at once
        }
    }
}
