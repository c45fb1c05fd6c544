package dev.jburn.spi;

import dev.jburn.Engine;
import dev.jburn.dist.Communicator;
import dev.jburn.dist.Store;

/**
 * A native communicator for one engine's tensors (NCCL for {@code cuda}), found through
 * {@link java.util.ServiceLoader} by {@link dev.jburn.dist.Communicators}. Declare it in {@code module-info}
 * ({@code provides dev.jburn.spi.CommunicatorProvider with ...}) and in
 * {@code META-INF/services/dev.jburn.spi.CommunicatorProvider}.
 *
 * <pre>{@code
 * public final class MyCommunicators implements CommunicatorProvider {
 *     public String engine() { return "my"; }
 *     public Availability availability() { return Availability.yes("my collectives 1.0"); }
 *     public Communicator create(Engine e, int rank, int size, Store store) { ... }
 * }
 * }</pre>
 */
public interface CommunicatorProvider {
    /** The engine whose tensors it moves, as {@link EngineProvider#name()}. */
    String engine();

    /** Whether {@link #create} can work here (the library is found), and why not. Must never throw. */
    Availability availability();

    /**
     * Replica {@code rank} of a group of {@code size} on {@code engine}; blocks until the whole group has joined.
     * {@code store} is shared by the group: rank 0 publishes what the others need to join (an NCCL id).
     */
    Communicator create(Engine engine, int rank, int size, Store store);
}
