package dev.jburn.reference;

import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

/**
 * Provides the {@code cpu} engine: always available, lowest priority. Without the Vector API in
 * the JVM ({@code --add-modules jdk.incubator.vector} missing on the class path) it runs its
 * scalar kernels and logs one line saying how to turn SIMD on.
 */
public final class ReferenceProvider implements EngineProvider {
    /** The engine name. */
    public static final String NAME = "cpu";

    private static final System.Logger LOG = System.getLogger("dev.jburn.reference");

    @Override public String name() { return NAME; }

    @Override public int priority() { return 0; }

    @Override
    public Availability availability() {
        String threads = "pure Java, " + Runtime.getRuntime().availableProcessors() + " threads, ";
        if (!VectorApi.present()) return Availability.yes(threads + "scalar kernels (" + VectorApi.FLAG + " for SIMD)");
        int lanes = VectorApi.f32Lanes();
        return Availability.yes(threads + "Vector API " + (lanes * 32) + "-bit (" + lanes + " f32 lanes)");
    }

    @Override
    public Backend create(EngineConfig config) {
        if (config.vectorKernels() && !VectorApi.present()) {
            LOG.log(System.Logger.Level.INFO, "jburn: the cpu engine runs its scalar kernels: the Vector API is not in this JVM. "
                    + "Start java with " + VectorApi.FLAG + " for the SIMD kernels (" + VectorApi.SPEEDUP + ")");
            config = config.withVectorKernels(false);
        }
        return new ReferenceBackend(config);
    }
}
