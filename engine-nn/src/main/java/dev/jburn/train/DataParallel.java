package dev.jburn.train;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.dist.Communicator;
import dev.jburn.dist.Communicators;
import dev.jburn.dist.Store;
import dev.jburn.dist.ThreadCommunicator;

import java.util.List;

/**
 * How {@link Trainer#fit} spreads training over replicas ({@link Fit#dataParallel}): each replica takes an equal
 * slice of every batch ({@link Fit#batchSize} is the global batch), computes its gradients, the replicas sum them
 * (in buckets of about 25 MB, reverse parameter order), and every replica applies the same optimizer step, so the
 * parameters stay identical and equal (within f32 rounding) those of one replica on the whole batch. Parameters,
 * model state and optimizer state are broadcast from rank 0 at the start; metrics are merged at the end of each
 * epoch; callbacks, progress, logs and validation run on rank 0, whose stop decisions and learning-rate changes every replica
 * follows. Batch-norm layers normalize with their replica's statistics (no synchronized batch norm); their running
 * statistics are averaged after each step.
 *
 * <pre>{@code
 * // one JVM, one thread per replica (here 4 replicas on the cpu engine)
 * trainer.fit(state, train, Fit.epochs(5).batchSize(256).dataParallel(DataParallel.threads(4)));
 * // one JVM, one thread per GPU (NCCL between them)
 * List<Engine> gpus = List.of(Engine.select("cuda:0"), Engine.select("cuda:1"));
 * trainer.fit(state, train, Fit.epochs(5).batchSize(256).dataParallel(DataParallel.threads(gpus)));
 *
 * // one process per GPU, started by Launcher (or torchrun, or a scheduler) with RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT
 * try (Rendezvous r = Rendezvous.fromEnvironment(); Communicator c = Communicators.create(Engine.select("cuda"), r)) {
 *     trainer.fit(state, train.to(engine), Fit.epochs(5).batchSize(256).dataParallel(DataParallel.of(c)));
 * }
 * }</pre>
 */
public final class DataParallel {
    /** The communicators of one fit, made per fit (a group is spent once a replica fails). */
    interface Group {
        /** Rank {@code r}'s communicator, called on the replica's own thread (NCCL joins block until all have). */
        Communicator join(int r);
    }

    private final int replicas;
    private final List<Engine> engines;
    private final Communicator communicator;
    private final long bucketBytes;

    private DataParallel(int replicas, List<Engine> engines, Communicator communicator, long bucketBytes) {
        this.replicas = replicas;
        this.engines = engines;
        this.communicator = communicator;
        this.bucketBytes = bucketBytes;
    }

    /** {@code n} replicas as threads of this JVM, on the engine of the state passed to {@code fit}. */
    public static DataParallel threads(int n) {
        if (n < 1) throw new JBurnException("dataParallel", "needs at least one replica, got " + n);
        return new DataParallel(n, null, null, GradientBuckets.DEFAULT_CAP_BYTES);
    }

    /**
     * One replica per engine (one per GPU: {@code Engine.select("cuda:0")}, {@code "cuda:1"}, ...), as threads of this
     * JVM. They talk through the engines' native communicator (NCCL) when all are devices of one engine that has one,
     * each a different device, else through {@link ThreadCommunicator} (copies through the host).
     */
    public static DataParallel threads(List<Engine> devices) {
        if (devices == null || devices.isEmpty() || devices.stream().anyMatch(java.util.Objects::isNull)) throw new JBurnException("dataParallel", "needs a non-empty list of engines");
        return new DataParallel(devices.size(), List.copyOf(devices), null, GradientBuckets.DEFAULT_CAP_BYTES);
    }

    /** This process is replica {@code c.rank()} of {@code c.size()}; the others run the same fit with their own. */
    public static DataParallel of(Communicator c) {
        if (c == null) throw new JBurnException("dataParallel", "the communicator must not be null");
        return new DataParallel(c.size(), null, c, GradientBuckets.DEFAULT_CAP_BYTES);
    }

    /** Buckets of at most {@code bytes} (PyTorch DDP's 25 MB by default). */
    public DataParallel bucketBytes(long bytes) {
        if (bytes < 1) throw new JBurnException("dataParallel", "the bucket size must be >= 1 byte, got " + bytes);
        return new DataParallel(replicas, engines, communicator, bytes);
    }

    /** The number of replicas. */
    public int replicas() { return replicas; }

    /** The bucket size in bytes. */
    public long bucketBytes() { return bucketBytes; }

    /** Whether the replicas are threads of this JVM that {@code fit} starts (else this process is one replica). */
    boolean threaded() { return communicator == null; }

    /** This process's communicator (process mode). */
    Communicator communicator() { return communicator; }

    /** Replica {@code r}'s engine in thread mode; {@code fallback} (the state's) when none was given. */
    Engine engine(int r, Engine fallback) { return engines == null ? fallback : engines.get(r); }

    /** A fresh group for one threaded fit. */
    Group group() {
        // NCCL takes one rank per device in a process: the native communicator only for one engine on distinct devices.
        boolean sameEngine = engines != null && engines.stream().map(Engine::name).distinct().count() == 1
                && engines.stream().map(Engine::label).distinct().count() == engines.size();
        if (sameEngine && Communicators.provider(engines.getFirst().name()).map(p -> p.availability().available()).orElse(false)) {
            Store store = Store.inMemory();
            return r -> Communicators.create(engines.get(r), r, replicas, store);
        }
        List<ThreadCommunicator> g = ThreadCommunicator.group(replicas);
        return g::get;
    }

    @Override
    public String toString() {
        return communicator != null ? "DataParallel[process " + communicator.rank() + "/" + communicator.size() + ", " + communicator.describe() + "]"
                : "DataParallel[" + replicas + " threads" + (engines == null ? "" : " on " + engines) + "]";
    }
}
