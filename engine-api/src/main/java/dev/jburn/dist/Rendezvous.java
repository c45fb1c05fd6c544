package dev.jburn.dist;

import dev.jburn.JBurnException;

import java.time.Duration;
import java.util.Map;

/**
 * How the processes of a group find each other, torchrun's way: {@code RANK}, {@code WORLD_SIZE},
 * {@code MASTER_ADDR}, {@code MASTER_PORT} (and {@code LOCAL_RANK}, the device to use on this host) in the
 * environment; rank 0 serves a {@link TcpStore} on the master address, every rank connects to it. The same works
 * across hosts when {@code MASTER_ADDR} is rank 0's host (see the README: Kubernetes jobs, Spark barrier mode).
 *
 * <pre>{@code
 * try (Rendezvous r = Rendezvous.fromEnvironment()) {          // set by Launcher, torchrun or a scheduler
 *     Engine e = Engine.select("cuda");                         // CUDA_VISIBLE_DEVICES or JBURN_CUDA_DEVICE=LOCAL_RANK picks the GPU
 *     try (Communicator c = Communicators.create(e, r)) { ... }
 * }
 * }</pre>
 *
 * @param rank      this process's index in the group
 * @param size      the number of processes
 * @param localRank this process's index on its host
 * @param store     the store shared by the group
 * @param server    rank 0's server (the same object as {@code store}), null on the other ranks
 */
public record Rendezvous(int rank, int size, int localRank, Store store, TcpStore server) implements AutoCloseable {
    /** How long ranks wait for rank 0's store and for each other at the end. */
    public static final Duration TIMEOUT = Duration.ofMinutes(5);

    public Rendezvous {
        if (size < 1 || rank < 0 || rank >= size) throw new JBurnException("rendezvous", "RANK " + rank + " outside WORLD_SIZE " + size);
        if (store == null) throw new JBurnException("rendezvous", "the store must not be null");
    }

    /** The group this process's environment describes. */
    public static Rendezvous fromEnvironment() { return fromEnvironment(System.getenv()); }

    /** The group {@code env} describes (the variables above; {@code LOCAL_RANK} defaults to {@code RANK}). */
    public static Rendezvous fromEnvironment(Map<String, String> env) {
        if (env == null) throw new JBurnException("rendezvous", "the environment must not be null");
        int rank = intVar(env, "RANK", null), size = intVar(env, "WORLD_SIZE", null);
        int local = intVar(env, "LOCAL_RANK", rank);
        String addr = env.get("MASTER_ADDR");
        if (addr == null || addr.isBlank()) throw new JBurnException("rendezvous", "MASTER_ADDR is not set (rank 0's host, e.g. 127.0.0.1)");
        int port = intVar(env, "MASTER_PORT", null);
        if (port < 1 || port > 65535) throw new JBurnException("rendezvous", "MASTER_PORT must be in [1, 65535], got " + port);
        return join(rank, size, local, addr, port);
    }

    /** Joins the group: rank 0 serves the store on {@code addr:port}, the others connect to it. */
    public static Rendezvous join(int rank, int size, int localRank, String addr, int port) {
        if (size < 1 || rank < 0 || rank >= size) throw new JBurnException("rendezvous", "RANK " + rank + " outside WORLD_SIZE " + size);
        if (rank == 0) {
            TcpStore server = TcpStore.serve(addr, port);
            return new Rendezvous(0, size, localRank, server, server);
        }
        return new Rendezvous(rank, size, localRank, TcpStore.connect(addr, port, TIMEOUT), null);
    }

    private static int intVar(Map<String, String> env, String name, Integer fallback) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            if (fallback != null) return fallback;
            throw new JBurnException("rendezvous", name + " is not set (a launcher sets RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT)");
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new JBurnException("rendezvous", name + " must be an integer, got '" + v + "'");
        }
    }

    /**
     * Leaves the group: every rank posts that it is done, and rank 0 stops serving the store only once all have,
     * so no rank loses the store while it still needs it.
     */
    @Override
    public void close() {
        try {
            store.set("rendezvous/done/" + rank, new byte[] {1});
            if (server != null) for (int r = 1; r < size; r++) store.get("rendezvous/done/" + r, TIMEOUT);
        } finally {
            store.close();
        }
    }
}
