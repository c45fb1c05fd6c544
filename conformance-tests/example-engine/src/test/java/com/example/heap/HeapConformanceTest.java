package com.example.heap;

import dev.jburn.Engine;
import dev.jburn.conformance.ConformanceKit;

/** Every contract of the kit against the heap engine. */
class HeapConformanceTest implements ConformanceKit {
    @Override
    public Engine engine() { return Engine.select("heap"); }
}
