package dev.jburn.conformance;

/**
 * The whole conformance kit. Implement it in one test class to run every contract against
 * your engine:
 *
 * <pre>{@code
 * class MyEngineConformanceTest implements ConformanceKit {
 *     public Engine engine() { return Engine.select("my-engine"); }
 * }
 * }</pre>
 *
 * Each contract interface listed here is also usable alone. Every property compares the
 * engine with the {@link Oracle} (the reference engine's scalar kernels) within a
 * {@link Tolerance}; a failure prints the generated case and the QuickTheories seed
 * ({@code -DQT_SEED=...} replays it).
 */
public interface ConformanceKit extends
        CastContract,
        ShapeContract,
        CreationContract,
        ReductionContract,
        ScanContract,
        SortContract,
        MovementContract,
        SliceJoinContract,
        IndexContract,
        DotContract,
        PromotionContract,
        TransferContract,
        ErrorContract, UnaryContract, BinaryContract, ElementwiseLawContract, IeeeContract, SelectContract, BitcastContract, RandomContract,
        WindowContract, ConvContract, LinalgContract, GradientContract, LayerContract {
}
