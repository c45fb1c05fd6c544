package dev.jburn.dist;

import java.time.Duration;

/**
 * A key-value store the replicas of a group share to find each other (torchrun's store): rank 0 publishes the
 * NCCL id, the others wait for it. {@link #inMemory()} serves threads of one JVM; {@link TcpStore} serves
 * processes, on one host or several.
 *
 * <pre>{@code
 * store.set("nccl/id", idBytes);                         // rank 0
 * byte[] id = store.get("nccl/id", Duration.ofMinutes(5));   // everyone: waits until it is there
 * }</pre>
 */
public interface Store extends AutoCloseable {
    /** Sets {@code key} to {@code value}, waking those waiting for it. */
    void set(String key, byte[] value);

    /** The value of {@code key}, waiting up to {@code timeout} for it to be set; a {@code JBurnException} after that. */
    byte[] get(String key, Duration timeout);

    /** Removes {@code key} (nothing when absent). */
    void delete(String key);

    /** Releases the store (a client's connection; a server's socket). Idempotent. */
    @Override void close();

    /** A store in this JVM's memory, for replicas that are threads. */
    static Store inMemory() { return new MemoryStore(); }
}
