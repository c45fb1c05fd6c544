package dev.jburn.cuda;

import dev.jburn.Engine;
import dev.jburn.dist.Communicator;
import dev.jburn.dist.Store;
import dev.jburn.spi.Availability;
import dev.jburn.spi.CommunicatorProvider;

/**
 * NCCL collectives for the {@code cuda} engine, found by {@code Communicators.create} through
 * {@link java.util.ServiceLoader}. Available when {@code libnccl.so.2} loads ({@code JBURN_NCCL_LIBRARY} or
 * {@code -Djburn.nccl.library} names another); the probe never throws, and says why not.
 *
 * <pre>{@code
 * Communicator c = Communicators.create(Engine.select("cuda"), Rendezvous.fromEnvironment());   // NCCL when found
 * }</pre>
 */
public final class NcclProvider implements CommunicatorProvider {
    @Override public String engine() { return CudaProvider.NAME; }

    @Override
    public Availability availability() {
        try {
            Nccl n = Nccl.get();
            return Availability.yes("nccl " + n.versionText() + " (" + n.libraryName() + ")");
        } catch (CudaUnavailableException e) {
            return Availability.no(e.getMessage() + " (set JBURN_NCCL_LIBRARY to libnccl.so.2's path)");
        } catch (RuntimeException | LinkageError e) {
            return Availability.no("NCCL probe failed: " + e);
        }
    }

    @Override
    public Communicator create(Engine engine, int rank, int size, Store store) { return NcclCommunicator.join(engine, rank, size, store); }
}
