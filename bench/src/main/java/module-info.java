/** JMH benchmarks for JBurn, and PeerBench (JBurn beside numpy, PyTorch and DJL). */
module dev.jburn.bench {
    requires dev.jburn.api;
    requires dev.jburn.nn;
    requires dev.jburn.serving;
    requires jmh.core;
    requires java.management;
    requires ai.djl.api;

    uses dev.jburn.spi.EngineProvider;

    exports dev.jburn.bench;
    exports dev.jburn.bench.jmh_generated;
}
