package dev.jburn.reference;

/**
 * Whether this JVM has the Vector API ({@code jdk.incubator.vector}), the only place that asks.
 *
 * <p>The module is an incubator: on the class path it is resolved only when the JVM starts with
 * {@code --add-modules jdk.incubator.vector} (on the module path, this module's {@code requires}
 * resolves it). Without it the cpu engine runs its scalar kernels: every class that names a
 * vector type ({@code VectorF32}, {@code GemmKernels}, ...) is reached only behind
 * {@code EngineConfig.vectorKernels()}, which {@link ReferenceProvider#create} turns off here,
 * so none of them is ever loaded.
 */
final class VectorApi {
    private VectorApi() {}

    /** The JVM option that enables the SIMD kernels. */
    static final String FLAG = "--add-modules jdk.incubator.vector";

    /**
     * What the SIMD kernels gain: {@code dev.jburn.bench.ScalarVsSimd} (same inputs, one JVM, SIMD
     * engine against scalar engine), five runs on this project's busy 2-core Zen 5: f32 matmul 512
     * 6-26x, exp on 4M f32 18-54x, sum 7-34x, a * b + c 1.8-2.7x.
     */
    static final String SPEEDUP = "about 10x faster on f32 matmul, 20x or more on exp and sums, 2x on simple arithmetic";

    private static final boolean PRESENT = probe();

    /** True when {@code jdk.incubator.vector} is readable here. */
    static boolean present() { return PRESENT; }

    /** f32 lanes of the preferred species; only call when {@link #present()}. */
    static int f32Lanes() { return VectorLanesProbe.f32Lanes(); }

    private static boolean probe() {
        try {
            Class.forName("jdk.incubator.vector.FloatVector", false, VectorApi.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Kept in its own class so that loading {@link VectorApi} never loads a vector type. */
    private static final class VectorLanesProbe {
        static int f32Lanes() { return jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.length(); }
    }
}
