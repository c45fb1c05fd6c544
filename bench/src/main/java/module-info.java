/** JMH benchmarks for JBurn. */
module dev.jburn.bench {
    requires dev.jburn.api;
    requires jmh.core;

    exports dev.jburn.bench;
    exports dev.jburn.bench.jmh_generated;
}
