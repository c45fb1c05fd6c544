package dev.jburn.dist;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.spi.TensorBuffers;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Replicas in separate processes exchanging tensors through a {@link Store} (a {@link TcpStore}): each collective
 * posts this replica's tensors as bytes under {@code "c/<seq>/<rank>"}, reads everyone's, and reduces them in rank
 * order on the host side of its engine, so the results equal {@link ThreadCommunicator}'s bit for bit. Every
 * collective waits for every replica (a broadcast too), which lets each replica delete its previous post: all
 * replicas have read it once they have all posted the next one. Slow (everything through one TCP server); it is
 * the fallback for engines without a native communicator, and what tests of the process launch run on.
 *
 * <pre>{@code
 * try (Rendezvous r = Rendezvous.fromEnvironment(); Communicator c = new StoreCommunicator(r.store(), r.rank(), r.size())) {
 *     Tensor sum = c.allReduce(x, ReduceOp.SUM);
 * }
 * }</pre>
 */
public final class StoreCommunicator implements Communicator {
    private final Store store;
    private final int rank, size;
    private final Duration timeout;
    private volatile long seq;
    private volatile boolean aborted;
    private boolean closed;

    /** Replica {@code rank} of {@code size} over {@code store}, waiting at most 10 minutes for the others. */
    public StoreCommunicator(Store store, int rank, int size) { this(store, rank, size, Duration.ofMinutes(10)); }

    /** As above, waiting at most {@code timeout} per collective. */
    public StoreCommunicator(Store store, int rank, int size, Duration timeout) {
        if (store == null || timeout == null) throw new JBurnException("storeCommunicator", "a store and a timeout are required");
        if (size < 1 || rank < 0 || rank >= size) throw new JBurnException("storeCommunicator", "rank " + rank + " outside a group of " + size);
        this.store = store;
        this.rank = rank;
        this.size = size;
        this.timeout = timeout;
    }

    @Override public int rank() { return rank; }

    @Override public int size() { return size; }

    @Override
    public synchronized List<Tensor> allReduce(List<Tensor> tensors, ReduceOp op) {
        if (op == null) throw new JBurnException("allReduce", "the reduce op must not be null");
        Collectives.check("allReduce", tensors, op);
        List<List<Tensor>> all = exchange("allReduce", tensors, tensors, -1);
        try {
            return Collectives.reduce(all, op, Collectives.engines(tensors));
        } finally {
            closeOthers(all);
        }
    }

    @Override
    public synchronized List<Tensor> broadcast(List<Tensor> tensors, int root) {
        Collectives.check("broadcast", tensors, null);
        Collectives.checkRoot("broadcast", root, size);
        List<List<Tensor>> all = exchange("broadcast", tensors, rank == root ? tensors : List.of(), root);
        if (rank == root) {
            List<Tensor> out = new ArrayList<>();
            for (Tensor t : tensors) out.add(TensorBuffers.copy(t, t.engine()));
            return out;
        }
        return all.get(root); // fresh tensors on this replica's engines
    }

    @Override
    public synchronized void barrier() { exchange("barrier", List.of(), List.of(), -1); }

    /**
     * Posts {@code post}, reads the others' posts (only {@code onlyFrom}'s when >= 0) as tensors on the engines of
     * {@code mine}, and deletes this replica's previous post.
     */
    private List<List<Tensor>> exchange(String op, List<Tensor> mine, List<Tensor> post, int onlyFrom) {
        if (closed) throw new JBurnException(op, "replica " + rank + "'s communicator is closed");
        if (aborted) throw new JBurnException(op, "this replica aborted the group");
        long s = seq++;
        store.set(key(s, rank), encode(post));
        List<List<Tensor>> all = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (r == rank) {
                all.add(mine);
                continue;
            }
            byte[] b = store.get(key(s, r), timeout);
            if (b.length == 0) throw new JBurnException(op, "replica " + r + " aborted the group");
            if (onlyFrom >= 0 && r != onlyFrom) {
                all.add(List.of());
                continue;
            }
            List<Tensor> got = decode(op, b, mine);
            all.add(got);
            if (onlyFrom < 0) Collectives.checkSameLayout(op, rank, mine, r, Collectives.TensorSpec.of(got));
        }
        if (s > 0) store.delete(key(s - 1, rank));
        return all;
    }

    private static String key(long seq, int rank) { return "c/" + seq + "/" + rank; }

    private void closeOthers(List<List<Tensor>> all) {
        for (int r = 0; r < all.size(); r++) if (r != rank) all.get(r).forEach(Tensor::close);
    }

    static byte[] encode(List<Tensor> ts) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(ts.size());
            for (Tensor t : ts) {
                out.writeUTF(t.dtype().name());
                int[] dims = t.shape().dims();
                out.writeInt(dims.length);
                for (int d : dims) out.writeInt(d);
                byte[] b = TensorBuffers.bytes(t);
                out.writeInt(b.length);
                out.write(b);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e); // a byte array stream does not fail
        }
    }

    /** The tensors in {@code b}, on the engines of {@code like} (position by position; the first's past its end). */
    static List<Tensor> decode(String op, byte[] b, List<Tensor> like) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            int n = in.readInt();
            if (n < 0 || n > b.length) throw new IOException("bad count " + n);
            List<Tensor> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                DType t = DType.valueOf(in.readUTF());
                int rankOf = in.readInt();
                if (rankOf < 0 || rankOf > 64) throw new IOException("bad rank " + rankOf);
                int[] dims = new int[rankOf];
                for (int d = 0; d < rankOf; d++) dims[d] = in.readInt();
                byte[] data = TcpStore.readValue(in);
                Engine e = like.isEmpty() ? Engine.defaultEngine() : like.get(Math.min(i, like.size() - 1)).engine();
                out.add(TensorBuffers.fromBytes(e, data, t, Shape.of(dims)));
            }
            return out;
        } catch (IOException | IllegalArgumentException e) {
            throw new JBurnException(op, "a replica's post is malformed: " + e.getMessage());
        }
    }

    @Override
    public void abort() {
        if (aborted) return;
        aborted = true;
        // An empty post where the others will look next: they fail at once instead of waiting out the timeout.
        store.set(key(seq, rank), new byte[0]);
    }

    @Override public String describe() { return "store (" + size + " processes, tensors through the rendezvous store)"; }

    @Override public synchronized void close() { closed = true; }
}
