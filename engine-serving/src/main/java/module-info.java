/**
 * JBurn serving: batched inference in the manner of Nx.Serving ({@code Serving}) and the KServe Open Inference
 * Protocol v2 over REST ({@code InferenceServer}, on the JDK's {@code jdk.httpserver}), with Prometheus metrics.
 */
module dev.jburn.serving {
    requires transitive dev.jburn.nn;
    requires jdk.httpserver;
    requires com.fasterxml.jackson.core;
    requires io.prometheus.metrics.core;
    requires io.prometheus.metrics.model;
    requires io.prometheus.writer.text;

    exports dev.jburn.serving;
}
