package dev.jburn.dist;

import dev.jburn.Tensor;

import java.util.List;

/**
 * One replica's end of a group of {@link #size()} replicas that exchange tensors: all-reduce, broadcast and
 * barrier, the collectives data-parallel training needs. Every replica calls the same collectives in the same
 * order with tensors of the same dtypes and shapes; a call returns when this replica's result is ready (on a GPU:
 * queued on the engine's stream, in order with the work around it). Results are new tensors on each input's
 * engine; the inputs are left as they were. Implementations: {@link ThreadCommunicator} (replicas as threads of
 * one JVM), {@link StoreCommunicator} (processes, through a {@link Store}; host copies), and NCCL for the cuda
 * engine ({@code accel-burn-cuda}), found by {@link Communicators#create}.
 *
 * <pre>{@code
 * try (Rendezvous r = Rendezvous.fromEnvironment();                  // RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT
 *      Communicator c = Communicators.create(engine, r)) {
 *     List<Tensor> mean = c.allReduce(List.of(grad), ReduceOp.AVERAGE);
 *     List<Tensor> w = c.broadcast(List.of(weights), 0);            // rank 0's values everywhere
 * }
 * }</pre>
 */
public interface Communicator extends AutoCloseable {
    /** This replica's index, {@code 0 .. size()-1}. */
    int rank();

    /** The number of replicas. */
    int size();

    /** The element-wise reduction of every replica's {@code tensors}, position by position, on every replica. */
    List<Tensor> allReduce(List<Tensor> tensors, ReduceOp op);

    /** {@link #allReduce(List, ReduceOp)} of one tensor. */
    default Tensor allReduce(Tensor tensor, ReduceOp op) { return allReduce(List.of(tensor), op).getFirst(); }

    /**
     * Replica {@code root}'s {@code tensors} on every replica, as new tensors (on the root too). The other
     * replicas' tensors give the dtypes and shapes; their values are not read.
     */
    List<Tensor> broadcast(List<Tensor> tensors, int root);

    /** Returns once every replica has called it. */
    void barrier();

    /**
     * Gives up: collectives in progress or later fail on every replica instead of waiting for this one (call it
     * when this replica fails, so the others do not hang). Idempotent; {@link #close()} is still needed.
     */
    void abort();

    /** What carries the data ({@code "threads"}, {@code "nccl 2.28.3"}, ...), for logs. */
    String describe();

    /** Releases the group's resources held by this replica. Idempotent. */
    @Override void close();
}
