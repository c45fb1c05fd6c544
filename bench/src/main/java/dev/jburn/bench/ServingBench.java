package dev.jburn.bench;

import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.nn.Activation;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.translate.NoopTranslator;
import ai.djl.util.Pair;
import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Model;
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
 * Throughput and latency of the served MLP 784-256-10 (one row per request) at 1, 8 and 32 concurrent clients:
 * JBurn's {@link Serving} with dynamic batching (batch 32, 1 ms) and without (batch 1), beside DJL's {@code Predictor}
 * (PyTorch engine, offline) running the same weights, one predictor per client thread, in the same run.
 * <pre>{@code
 * ./mvnw -q -o -pl bench -am package -DskipTests && java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp "bench/target/classes:bench/target/lib/*" dev.jburn.bench.ServingBench [seconds=5]
 * }</pre>
 */
public final class ServingBench {
    private ServingBench() {}

    /** One client's loop: calls {@code call} until {@code until}, recording each latency. */
    private interface Call { void run(float[] row) throws Exception; }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        Model mlp = Model.input("image", Shape.of(-1, 784)).dense(256, dev.jburn.nn.Activation.RELU).dense(10).named("mlp");
        ModelState state = mlp.init(Prng.key(0));
        System.out.println("work: MLP 784-256-10 f32, one row per request, " + seconds + " s per cell after 1 s of warm-up; "
                + Runtime.getRuntime().availableProcessors() + " cores");
        System.out.printf(Locale.ROOT, "%-34s %7s %12s %9s %9s%n", "runtime", "clients", "requests/s", "p50 ms", "p99 ms");
        for (int clients : new int[] {1, 8, 32}) {
            try (Serving s = Serving.of(mlp, state).batchSize(32).batchTimeout(Duration.ofMillis(1)).queueCapacity(4096).start()) {
                report("jburn Serving, batching (32, 1 ms)", clients, measure(clients, seconds, () -> row -> {
                    try (Tensor t = Tensor.of(new float[][] {row})) {
                        s.submit(t).join().close();
                    }
                }));
            }
            try (Serving s = Serving.of(mlp, state).batchSize(1).buckets(1).partitions(2).queueCapacity(4096).start()) {
                report("jburn Serving, no batching (1, x2)", clients, measure(clients, seconds, () -> row -> {
                    try (Tensor t = Tensor.of(new float[][] {row})) {
                        s.submit(t).join().close();
                    }
                }));
            }
            try (Djl djl = new Djl(state)) {
                report("DJL Predictor (PyTorch), per thread", clients, measure(clients, seconds, djl::client));
            } catch (Throwable e) {
                System.out.println("DJL unavailable: " + e);
            }
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

    /** The same MLP in DJL: a SequentialBlock whose weights are JBurn's (Linear weights are [out, in]: transposed). */
    private static final class Djl implements AutoCloseable {
        private final NDManager manager;
        private final ai.djl.Model model;

        Djl(ModelState state) {
            manager = NDManager.newBaseManager("PyTorch");
            SequentialBlock block = new SequentialBlock().add(Linear.builder().setUnits(256).build()).add(Activation::relu)
                    .add(Linear.builder().setUnits(10).build());
            block.initialize(manager, DataType.FLOAT32, new ai.djl.ndarray.types.Shape(1, 784));
            String[] names = {"dense_0.kernel", "dense_0.bias", "dense_1.kernel", "dense_1.bias"};
            int i = 0;
            for (Pair<String, Parameter> p : block.getParameters()) {
                Tensor t = state.get(names[i++]);
                float[] v = t.toFloatArray();
                if (t.rank() == 2) v = transposed(v, t.shape().dim(0), t.shape().dim(1));
                p.getValue().getArray().set(FloatBuffer.wrap(v));
            }
            model = ai.djl.Model.newInstance("mlp", "PyTorch");
            model.setBlock(block);
        }

        Call client() {
            Predictor<NDList, NDList> p = model.newPredictor(new NoopTranslator());
            NDManager m = manager.newSubManager();
            return row -> {
                try (NDManager call = m.newSubManager()) {
                    NDList out = p.predict(new NDList(call.create(row, new ai.djl.ndarray.types.Shape(1, 784))));
                    out.close();
                }
            };
        }

        private static float[] transposed(float[] v, int rows, int cols) {
            float[] t = new float[v.length];
            for (int r = 0; r < rows; r++) for (int c = 0; c < cols; c++) t[c * rows + r] = v[r * cols + c];
            return t;
        }

        @Override public void close() {
            model.close();
            manager.close();
        }
    }
}
