package dev.jburn.bench;

import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.translate.NoopTranslator;
import ai.djl.util.Pair;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.ModelState;
import dev.jburn.serving.Serving;

import java.nio.FloatBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.function.Supplier;

/**
 * Throughput and latency of a served model (one row per request) at 1, 8 and 32 concurrent clients, for the MLP
 * 784-256-10 and the cli's CNN (conv32-pool-conv64-pool-128-10 on 28×28×1): JBurn's {@link Serving} with dynamic
 * batching (batch 32, 1 ms) and without (batch 1), beside DJL's {@code Predictor} (PyTorch engine, offline) running the
 * same weights ({@link ServingBenchModels}: the layouts converted), one predictor per client thread, in the same run.
 * Before timing, both runtimes answer the same rows and must agree.
 * <pre>{@code
 * ./mvnw -q -o -pl bench -am package -DskipTests && java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp "bench/target/classes:bench/target/lib/*" dev.jburn.bench.ServingBench [seconds=5] [mlp,cnn]
 * }</pre>
 */
public final class ServingBench {
    private ServingBench() {}

    /** One client's loop: calls {@code call} until {@code until}, recording each latency. */
    private interface Call { void run(float[] row) throws Exception; }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        List<String> which = List.of((args.length > 1 ? args[1] : "mlp,cnn").toLowerCase(Locale.ROOT).split(","));
        for (ServingBenchModels w : List.of(ServingBenchModels.mlp(), ServingBenchModels.cnn())) {
            if (which.contains(w.name().toLowerCase(Locale.ROOT))) bench(w, seconds);
        }
    }

    private static void bench(ServingBenchModels w, double seconds) throws Exception {
        ModelState state = w.model().init(Prng.key(0));
        System.out.println("work: " + w.description() + ", one row per request, " + seconds + " s per cell after 1 s of warm-up; "
                + Runtime.getRuntime().availableProcessors() + " cores");
        Djl djl = null;
        try {
            djl = new Djl(w, state);
            System.out.println("same outputs: " + djl.agreement(w, state, 4));
        } catch (IllegalStateException e) {
            throw e;
        } catch (Throwable e) {
            System.out.println("DJL unavailable: " + e);
        }
        System.out.printf(Locale.ROOT, "%-34s %7s %12s %9s %9s%n", "runtime (" + w.name() + ")", "clients", "requests/s", "p50 ms", "p99 ms");
        try {
            for (int clients : new int[] {1, 8, 32}) {
                try (Serving s = Serving.of(w.model(), state).batchSize(32).batchTimeout(Duration.ofMillis(1)).queueCapacity(4096).start()) {
                    report("jburn Serving, batching (32, 1 ms)", clients, measure(clients, seconds, () -> row -> {
                        try (Tensor t = request(w, row)) {
                            s.submit(t).join().close();
                        }
                    }));
                }
                try (Serving s = Serving.of(w.model(), state).batchSize(1).buckets(1).partitions(2).queueCapacity(4096).start()) {
                    report("jburn Serving, no batching (1, x2)", clients, measure(clients, seconds, () -> row -> {
                        try (Tensor t = request(w, row)) {
                            s.submit(t).join().close();
                        }
                    }));
                }
                if (djl != null) report("DJL Predictor (PyTorch), per thread", clients, measure(clients, seconds, djl::client));
            }
        } finally {
            if (djl != null) djl.close();
        }
    }

    /** One row as the model's request: [1, 784] or [1, 28, 28, 1]. */
    private static Tensor request(ServingBenchModels w, float[] row) {
        try (Tensor flat = Tensor.of(row)) {
            return flat.reshape(Shape.of(w.jburnRow()));
        }
    }

    private static void report(String name, int clients, double[] r) {
        System.out.printf(Locale.ROOT, "%-34s %7d %12.0f %9.3f %9.3f%n", name, clients, r[0], r[1], r[2]);
    }

    /** {requests/s, p50 ms, p99 ms} of {@code clients} threads calling for {@code seconds} after a warm-up second. */
    private static double[] measure(int clients, double seconds, Supplier<Call> perClient) throws Exception {
        List<long[]> lat = new ArrayList<>();
        int[] counts = new int[clients];
        CyclicBarrier start = new CyclicBarrier(clients);
        List<Thread> ts = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int c = 0; c < clients; c++) {
            int id = c;
            long[] mine = new long[2_000_000];
            lat.add(mine);
            Thread t = new Thread(() -> {
                try {
                    Call call = perClient.get();
                    start.await();
                    long warm = System.nanoTime() + 1_000_000_000L, end = warm + (long) (seconds * 1e9);
                    int n = 0, k = id;
                    while (true) {
                        long t0 = System.nanoTime();
                        if (t0 >= end) break;
                        call.run(ServingBenchRows.row(k++));
                        long t1 = System.nanoTime();
                        if (t0 >= warm && n < mine.length) mine[n++] = t1 - t0;
                    }
                    counts[id] = n;
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            ts.add(t);
            t.start();
        }
        for (Thread t : ts) t.join();
        if (!errors.isEmpty()) throw new IllegalStateException("a client failed", errors.getFirst());
        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int at = 0;
        for (int c = 0; c < clients; c++) {
            System.arraycopy(lat.get(c), 0, all, at, counts[c]);
            at += counts[c];
        }
        Arrays.sort(all);
        return new double[] {total / seconds, all[total / 2] / 1e6, all[(int) Math.min(total - 1, total * 0.99)] / 1e6};
    }

    /** The same model in DJL: its block, with JBurn's weights in DJL's layouts. */
    private static final class Djl implements AutoCloseable {
        private final NDManager manager;
        private final ai.djl.Model model;
        private final long[] rowShape;

        Djl(ServingBenchModels w, ModelState state) {
            manager = NDManager.newBaseManager("PyTorch");
            rowShape = w.djlRow();
            SequentialBlock block = w.djlBlock().get();
            block.initialize(manager, DataType.FLOAT32, new ai.djl.ndarray.types.Shape(rowShape));
            List<float[]> weights = w.djlWeights().apply(state);
            int i = 0;
            for (Pair<String, Parameter> p : block.getParameters()) {
                float[] v = weights.get(i++);
                if (p.getValue().getArray().size() != v.length) {
                    throw new IllegalStateException("DJL parameter " + p.getKey() + " " + p.getValue().getArray().getShape() + " has "
                            + p.getValue().getArray().size() + " values, JBurn's has " + v.length);
                }
                p.getValue().getArray().set(FloatBuffer.wrap(v));
            }
            if (i != weights.size()) throw new IllegalStateException("DJL has " + i + " parameters, JBurn " + weights.size());
            model = ai.djl.Model.newInstance(w.name(), "PyTorch");
            model.setBlock(block);
        }

        /** The largest difference between JBurn's predict and DJL's on the first {@code rows} rows; fails past 1e-4 (relative). */
        String agreement(ServingBenchModels w, ModelState state, int rows) throws Exception {
            Predictor<NDList, NDList> p = model.newPredictor(new NoopTranslator());
            double worst = 0;
            for (int k = 0; k < rows; k++) {
                float[] row = ServingBenchRows.row(k), want;
                try (Tensor x = request(w, row); Tensor y = w.model().predict(state, x)) {
                    want = y.toFloatArray();
                }
                float[] got;
                try (NDManager call = manager.newSubManager()) {
                    got = p.predict(new NDList(call.create(row, new ai.djl.ndarray.types.Shape(rowShape)))).singletonOrThrow().toFloatArray();
                }
                for (int i = 0; i < want.length; i++) {
                    double d = Math.abs(want[i] - got[i]);
                    if (d > 1e-4 * (1 + Math.abs(want[i]))) {
                        throw new IllegalStateException("JBurn and DJL disagree on row " + k + " output " + i + ": " + want[i] + " vs " + got[i]);
                    }
                    worst = Math.max(worst, d);
                }
            }
            p.close();
            return String.format(Locale.ROOT, "JBurn and DJL agree on %d rows (largest difference %.2e)", rows, worst);
        }

        Call client() {
            Predictor<NDList, NDList> p = model.newPredictor(new NoopTranslator());
            NDManager m = manager.newSubManager();
            return row -> {
                try (NDManager call = m.newSubManager()) {
                    NDList out = p.predict(new NDList(call.create(row, new ai.djl.ndarray.types.Shape(rowShape))));
                    out.close();
                }
            };
        }

        @Override public void close() {
            model.close();
            manager.close();
        }
    }
}
