/**
 * JBurn's conformance kit: property-based contract interfaces (QuickTheories + JUnit 5) that
 * an engine implementer runs against their engine, with generators, tolerances and the
 * reference engine's scalar kernels as the oracle.
 */
@SuppressWarnings("requires-transitive-automatic") // quicktheories 0.26 has no module name of its own
module dev.jburn.conformance {
    requires transitive dev.jburn.api;
    requires transitive dev.jburn.nn;
    requires dev.jburn.reference;
    requires transitive org.junit.jupiter.api;
    requires transitive quicktheories; // Gen and QuickTheory appear in the kit's public API

    exports dev.jburn.conformance;
}
