package dev.jburn.cuda;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.dist.Communicator;
import dev.jburn.dist.ReduceOp;
import dev.jburn.dist.Store;
import dev.jburn.spi.Operand;
import dev.jburn.spi.TensorBuffers;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Communicator} over NCCL for the cuda engine's tensors: the collectives run on the engine's own stream
 * in its context, reading the tensors' device buffers and writing new ones, so they are ordered with the kernels
 * before and after them and nothing waits on the host. The tensors of one call go to NCCL as one group
 * ({@code ncclGroupStart/End}): one launch for many buffers. Made by {@link NcclProvider} (found through
 * {@code Communicators.create}); rank 0 publishes the NCCL id in the group's store.
 *
 * <pre>{@code
 * try (Rendezvous r = Rendezvous.fromEnvironment(); Communicator c = Communicators.create(Engine.select("cuda"), r)) {
 *     Tensor g = c.allReduce(grad, ReduceOp.AVERAGE);      // NCCL ring/tree over NVLink, PCIe or sockets
 * }
 * }</pre>
 */
final class NcclCommunicator implements Communicator {
    /** How long ranks wait for rank 0's id. */
    private static final Duration JOIN_TIMEOUT = Duration.ofMinutes(5);
    /** Groups made through one store so far, so that a second group on the same store gets a fresh id key. */
    private static final Map<Store, AtomicInteger> GENERATIONS = new WeakHashMap<>();

    private final Nccl nccl;
    private final CudaBackend backend;
    private final Engine engine;
    private final MemorySegment comm;
    private final int rank, size;
    private boolean aborted, closed;

    private NcclCommunicator(Nccl nccl, CudaBackend backend, Engine engine, MemorySegment comm, int rank, int size) {
        this.nccl = nccl;
        this.backend = backend;
        this.engine = engine;
        this.comm = comm;
        this.rank = rank;
        this.size = size;
    }

    /** Joins the group: rank 0 makes the id and sets it in {@code store}, the others read it; blocks until all joined. */
    static NcclCommunicator join(Engine engine, int rank, int size, Store store) {
        if (engine == null || store == null) throw new JBurnException("communicator", "the engine and the store are required");
        if (!(engine.backend() instanceof CudaBackend backend)) {
            throw new JBurnException("communicator", "NCCL moves cuda tensors; engine '" + engine.name() + "' is not the cuda engine");
        }
        if (size < 1 || rank < 0 || rank >= size) throw new JBurnException("communicator", "rank " + rank + " outside a group of " + size);
        Nccl nccl = Nccl.get();
        int generation;
        synchronized (GENERATIONS) {
            generation = GENERATIONS.computeIfAbsent(store, s -> new AtomicInteger()).getAndIncrement();
        }
        String key = "nccl/id/" + generation;
        byte[] id;
        if (rank == 0) {
            id = nccl.uniqueId();
            store.set(key, id);
        } else {
            id = store.get(key, JOIN_TIMEOUT);
        }
        MemorySegment comm;
        try (var _ = backend.device().enter()) {
            comm = nccl.initRank(size, id, rank);
        }
        return new NcclCommunicator(nccl, backend, engine, comm, rank, size);
    }

    @Override public int rank() { return rank; }

    @Override public int size() { return size; }

    @Override
    public List<Tensor> allReduce(List<Tensor> tensors, ReduceOp op) {
        if (op == null) throw new JBurnException("allReduce", "the reduce op must not be null");
        List<Operand> in = operands("allReduce", tensors, op);
        int redOp = op == ReduceOp.AVERAGE ? Nccl.AVG : Nccl.SUM;
        return run("allReduce", in, (o, out) -> nccl.allReduce(CudaBackend.ptr(o), out, o.size(), Nccl.type(o.dtype()), redOp, comm,
                backend.device().stream, "allReduce of " + o.dtype().shortName() + o.shape()));
    }

    @Override
    public List<Tensor> broadcast(List<Tensor> tensors, int root) {
        if (root < 0 || root >= size) throw new JBurnException("broadcast", "root " + root + " outside the group of " + size + " replicas");
        List<Operand> in = operands("broadcast", tensors, null);
        return run("broadcast", in, (o, out) -> nccl.broadcast(CudaBackend.ptr(o), out, o.size(), Nccl.type(o.dtype()), root, comm,
                backend.device().stream, "broadcast of " + o.dtype().shortName() + o.shape()));
    }

    @Override
    public void barrier() {
        // An all-reduce of one float, waited for: every rank has reached it once it completes.
        try (Tensor one = Tensor.of(1f).to(engine)) {
            allReduce(List.of(one), ReduceOp.SUM).getFirst().close();
        }
        backend.synchronize();
    }

    private interface Call { void issue(Operand in, long out); }

    /** Issues one NCCL call per operand inside one group, on the engine's stream, into new buffers. */
    private List<Tensor> run(String op, List<Operand> in, Call call) {
        List<CudaBuffer> outs = new ArrayList<>();
        try (var _ = backend.device().enter()) {
            live(op);
            for (Operand o : in) outs.add(backend.newBuffer(o.dtype().byteSize(o.shape()), op));
            nccl.groupStart(op);
            try {
                for (int i = 0; i < in.size(); i++) if (in.get(i).size() > 0) call.issue(in.get(i), outs.get(i).pointer());
            } finally {
                nccl.groupEnd(op);
            }
        } catch (RuntimeException e) {
            outs.forEach(CudaBuffer::release);
            throw e;
        }
        List<Tensor> result = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) result.add(TensorBuffers.wrap(engine, outs.get(i), in.get(i).dtype(), in.get(i).shape()));
        return result;
    }

    private List<Operand> operands(String op, List<Tensor> tensors, ReduceOp reduce) {
        if (tensors == null) throw new JBurnException(op, "the tensor list must not be null");
        List<Operand> out = new ArrayList<>();
        for (int i = 0; i < tensors.size(); i++) {
            Tensor t = tensors.get(i);
            if (t == null) throw new JBurnException(op, "tensor " + i + " is null");
            if (t.engine() != engine) {
                throw new JBurnException(op, "tensor " + i + " (" + t.dtype().shortName() + t.shape() + ") is on engine '" + t.engine().name()
                        + "', this communicator moves the cuda engine's tensors: move it with .to(engine) first");
            }
            if (Nccl.type(t.dtype()) < 0) throw new JBurnException(op, "NCCL has no type for tensor " + i + " (" + t.dtype().shortName() + t.shape() + ")");
            if (reduce == ReduceOp.AVERAGE && !t.dtype().isFloat()) {
                throw new JBurnException(op, "AVERAGE needs floating-point tensors, tensor " + i + " is " + t.dtype().shortName() + t.shape());
            }
            out.add(TensorBuffers.operand(t));
        }
        return out;
    }

    private void live(String op) {
        if (closed) throw new JBurnException(op, "the NCCL communicator is closed");
        if (aborted) throw new JBurnException(op, "the NCCL communicator was aborted");
    }

    @Override
    public synchronized void abort() {
        if (aborted || closed) return;
        aborted = true;
        nccl.abort(comm); // returns while peers may still wait; their next NCCL call reports the remote error
    }

    @Override public String describe() { return "nccl " + nccl.versionText() + " (" + nccl.libraryName() + "), rank " + rank + " of " + size; }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (aborted) return; // ncclCommAbort freed the communicator
        try (var _ = backend.device().enter()) {
            backend.device().synchronize("close");
            nccl.destroy(comm);
        }
    }
}
