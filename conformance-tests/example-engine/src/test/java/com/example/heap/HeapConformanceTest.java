package com.example.heap;

import dev.jburn.Engine;
import dev.jburn.conformance.ConformanceKit;

/** Every contract of the kit against the heap engine. Public, so that an old surefire fails on the kit's sentinel instead of running nothing. */
public class HeapConformanceTest implements ConformanceKit {
    @Override
    public Engine engine() { return Engine.select("heap"); }
}
