package dev.jburn.dist;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.spi.Availability;
import dev.jburn.spi.CommunicatorProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds the communicator for an engine: a {@link CommunicatorProvider} for it (NCCL for {@code cuda}, from the
 * {@code accel-burn-cuda} jar) when one is found and available, else a {@link StoreCommunicator} (host copies
 * through the store), with one log line saying why.
 *
 * <pre>{@code
 * try (Rendezvous r = Rendezvous.fromEnvironment(); Communicator c = Communicators.create(Engine.select("cuda"), r)) { ... }
 * }</pre>
 */
public final class Communicators {
    private Communicators() {}

    private static final System.Logger LOG = System.getLogger("dev.jburn.dist");

    /** This process's communicator in the group {@code r} joined. */
    public static Communicator create(Engine engine, Rendezvous r) {
        if (r == null) throw new JBurnException("communicator", "the rendezvous must not be null");
        return create(engine, r.rank(), r.size(), r.store());
    }

    /** Replica {@code rank} of {@code size} on {@code engine}, joining through {@code store}; blocks until all have joined. */
    public static Communicator create(Engine engine, int rank, int size, Store store) {
        if (engine == null || store == null) throw new JBurnException("communicator", "the engine and the store are required");
        if (size < 1 || rank < 0 || rank >= size) throw new JBurnException("communicator", "rank " + rank + " outside a group of " + size);
        Optional<CommunicatorProvider> p = provider(engine.name());
        if (p.isPresent()) {
            Availability a = p.get().availability();
            if (a.available()) return p.get().create(engine, rank, size, store);
            LOG.log(System.Logger.Level.INFO, "no native communicator for engine '" + engine.name() + "' (" + a.reason() + "): tensors go through the store");
        }
        return new StoreCommunicator(store, rank, size);
    }

    /** The provider for engine {@code name}, if one is on the class or module path (available or not). */
    public static Optional<CommunicatorProvider> provider(String name) {
        for (CommunicatorProvider p : providers()) if (p.engine().equalsIgnoreCase(name)) return Optional.of(p);
        return Optional.empty();
    }

    /** Every provider found, available or not. */
    public static List<CommunicatorProvider> providers() {
        List<CommunicatorProvider> out = new ArrayList<>();
        ServiceLoader.load(CommunicatorProvider.class, Communicators.class.getClassLoader()).forEach(out::add);
        if (out.isEmpty()) ServiceLoader.load(CommunicatorProvider.class).forEach(out::add);
        return out;
    }
}
