package dev.jburn.conformance;

import dev.jburn.Engine;

/** The whole kit against the cpu engine as users get it: vector kernels on. */
class ReferenceConformanceTest implements ConformanceKit {
    @Override
    public Engine engine() { return Engine.select("cpu"); }
}
