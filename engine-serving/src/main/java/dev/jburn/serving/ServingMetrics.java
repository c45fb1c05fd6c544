package dev.jburn.serving;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntSupplier;

/**
 * A serving's metrics, in a registry of its own (the Prometheus Java client 1.x): requests, errors by kind,
 * rejections, queue depth, batch fill, batches by worker (labelled with its engine), and queue / compute / total latency histograms. {@link #writeText} gives
 * the Prometheus text format that {@code GET /metrics} serves; {@link #snapshot} the counts for programs.
 */
public final class ServingMetrics {
    private static final double[] LATENCY_BOUNDS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter requests, errors, batches, rows, partitionBatches;
    private final List<String> partitionEngines;
    private final AtomicLongArray batchesByPartition;
    private final Histogram fill, queueLatency, computeLatency, totalLatency;
    private final AtomicLong accepted = new AtomicLong(), rejected = new AtomicLong(), timedOut = new AtomicLong(),
            failed = new AtomicLong(), badInput = new AtomicLong(), answered = new AtomicLong(), batchCount = new AtomicLong();
    private final AtomicLong maxQueueDepth = new AtomicLong();

    /**
     * Counts at one moment.
     *
     * @param accepted      requests queued
     * @param answered      requests answered with a result
     * @param rejected      requests refused because the queue was full
     * @param timedOut      requests whose deadline passed before they ran
     * @param failed        requests whose run failed
     * @param badInput      requests refused for their input
     * @param batches       batches run
     * @param maxQueueDepth the deepest the queue has been
     */
    public record Snapshot(long accepted, long answered, long rejected, long timedOut, long failed, long badInput, long batches, long maxQueueDepth) {}

    /** Metrics of {@code model}, whose worker {@code i} runs on engine {@code partitionEngines.get(i)}. */
    ServingMetrics(String model, IntSupplier queueDepth, List<String> partitionEngines) {
        this.partitionEngines = List.copyOf(partitionEngines);
        this.batchesByPartition = new AtomicLongArray(partitionEngines.size());
        partitionBatches = Counter.builder().name("jburn_serving_partition_batches").help("Batches run by each worker, with its engine")
                .labelNames("model", "partition", "engine").register(registry);
        requests = Counter.builder().name("jburn_serving_requests").help("Requests submitted").labelNames("model").register(registry);
        errors = Counter.builder().name("jburn_serving_errors").help("Requests not answered with a result, by kind")
                .labelNames("model", "kind").register(registry);
        batches = Counter.builder().name("jburn_serving_batches").help("Batches run").labelNames("model").register(registry);
        rows = Counter.builder().name("jburn_serving_rows").help("Rows run, padding excluded").labelNames("model").register(registry);
        GaugeWithCallback.builder().name("jburn_serving_queue_depth").help("Requests (or pieces) waiting").labelNames("model")
                .callback(cb -> cb.call(queueDepth.getAsInt(), model)).register(registry);
        fill = Histogram.builder().name("jburn_serving_batch_fill").help("Rows of a batch over its padded size").labelNames("model")
                .classicOnly().classicUpperBounds(0.125, 0.25, 0.5, 0.75, 0.9, 1.0).register(registry);
        queueLatency = latency("jburn_serving_queue_seconds", "Time from submit to the start of the request's batch");
        computeLatency = latency("jburn_serving_compute_seconds", "Time to run a batch");
        totalLatency = latency("jburn_serving_total_seconds", "Time from submit to the answer");
        this.model = model;
    }

    private final String model;

    private Histogram latency(String name, String help) {
        return Histogram.builder().name(name).help(help).labelNames("model").classicOnly().classicUpperBounds(LATENCY_BOUNDS).register(registry);
    }

    void submitted() { requests.labelValues(model).inc(); }

    void accepted(int depth) {
        accepted.incrementAndGet();
        maxQueueDepth.accumulateAndGet(depth, Math::max);
    }

    void error(ServingException.Kind kind) {
        errors.labelValues(model, kind.name().toLowerCase(java.util.Locale.ROOT)).inc();
        (switch (kind) {
            case REJECTED -> rejected;
            case TIMED_OUT -> timedOut;
            case FAILED, UNAVAILABLE -> failed;
            case BAD_INPUT -> badInput;
        }).incrementAndGet();
    }

    void batch(int partition, int realRows, int paddedRows, double computeSeconds) {
        batchCount.incrementAndGet();
        batchesByPartition.incrementAndGet(partition);
        partitionBatches.labelValues(model, Integer.toString(partition), partitionEngines.get(partition)).inc();
        batches.labelValues(model).inc();
        rows.labelValues(model).inc(realRows);
        fill.labelValues(model).observe(realRows / (double) paddedRows);
        computeLatency.labelValues(model).observe(computeSeconds);
    }

    void queued(double seconds) { queueLatency.labelValues(model).observe(seconds); }

    void answered(double totalSeconds) {
        answered.incrementAndGet();
        totalLatency.labelValues(model).observe(totalSeconds);
    }

    /** The counts now. */
    public Snapshot snapshot() {
        return new Snapshot(accepted.get(), answered.get(), rejected.get(), timedOut.get(), failed.get(), badInput.get(), batchCount.get(),
                maxQueueDepth.get());
    }

    /** Batches run by each worker so far, in worker order (the order of {@link Serving#engines()}). */
    public long[] batchesByPartition() {
        long[] out = new long[batchesByPartition.length()];
        for (int i = 0; i < out.length; i++) out[i] = batchesByPartition.get(i);
        return out;
    }

    /** The Prometheus text exposition format (version 0.0.4) of every metric. */
    public void writeText(OutputStream out) throws IOException {
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
    }

    /** The content type of {@link #writeText}. */
    public static String contentType() { return PrometheusTextFormatWriter.CONTENT_TYPE; }
}
