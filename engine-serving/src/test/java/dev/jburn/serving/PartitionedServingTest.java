package dev.jburn.serving;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.reference.ReferenceProvider;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static dev.jburn.serving.ServingTest.MODEL;
import static dev.jburn.serving.ServingTest.STATE;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Partitions across engines: the cpu engine and a second engine ("twin": a separate instance of the cpu engine's
 * backend, with its own buffers, made with {@link Engine#create}), so that it runs in every build without a device.
 */
class PartitionedServingTest {
    /** A second engine of its own name whose backend is {@code wrap} of a fresh cpu backend. */
    private static Engine engine(String name, UnaryOperator<Backend> wrap) {
        EngineProvider cpu = new ReferenceProvider();
        return Engine.create(new EngineProvider() {
            @Override public String name() { return name; }
            @Override public int priority() { return -1; }
            @Override public Availability availability() { return Availability.yes("a second cpu engine, for tests"); }
            @Override public Backend create(EngineConfig c) { return wrap.apply(cpu.create(c.withThreads(1))); }
        }, EngineConfig.defaults());
    }

    private static final Engine CPU = Engine.select("cpu");
    private static final Engine TWIN = engine("twin", b -> b);

    @Test
    void twoEnginesEachRunBatchesAndEveryAnswerIsItsRowsPrediction() throws Exception {
        assertNotSame(CPU, TWIN);
        try (Serving s = Serving.of(MODEL, STATE).engines(CPU, TWIN).batchSize(2).batchTimeout(Duration.ofMillis(1)).start()) {
            assertEquals(List.of(CPU, TWIN), s.engines());
            List<Tensor> inputs = new ArrayList<>();
            List<CompletableFuture<Tensor>> out = new ArrayList<>();
            for (int i = 0; i < 300; i++) inputs.add(ServingTest.rows(1 + i % 3, i));
            for (Tensor x : inputs) out.add(s.submit(x));
            for (int i = 0; i < inputs.size(); i++) {
                Tensor got = out.get(i).get(20, TimeUnit.SECONDS);
                assertSame(CPU, got.engine(), "answers are on the state's engine, whichever engine ran them");
                assertArrayEquals(MODEL.predict(STATE, inputs.get(i)).toFloatArray(), got.toFloatArray(), 1e-6f, "request " + i);
            }
            // Both workers poll one queue, so which one takes a batch is timing: one still warming its engine up (the
            // first compiled call) can miss a whole round. More rounds, for up to 20 s, until each has run one.
            long[] byPartition = s.metrics().batchesByPartition();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while ((byPartition[0] == 0 || byPartition[1] == 0) && System.nanoTime() < until) {
                List<CompletableFuture<Tensor>> more = new ArrayList<>();
                for (int i = 0; i < 100; i++) more.add(s.submit(inputs.get(i)));
                for (int i = 0; i < more.size(); i++) {
                    assertArrayEquals(MODEL.predict(STATE, inputs.get(i)).toFloatArray(), more.get(i).get(20, TimeUnit.SECONDS).toFloatArray(), 1e-6f);
                }
                byPartition = s.metrics().batchesByPartition();
            }
            assertTrue(byPartition[0] > 0 && byPartition[1] > 0, "both partitions ran batches: " + java.util.Arrays.toString(byPartition));
            assertEquals(s.metrics().snapshot().batches(), byPartition[0] + byPartition[1]);
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            s.metrics().writeText(text);
            assertTrue(text.toString().contains("jburn_serving_partition_batches_total{engine=\"twin\",model=\"tiny\",partition=\"1\"}"), text.toString());
            Tensor big = ServingTest.rows(5, 99);
            assertArrayEquals(MODEL.predict(STATE, big).toFloatArray(), s.run(big).toFloatArray(), 1e-6f, "run() splits and pads as well");
        }
    }

    @Test
    void eachEngineRunsOnItsOwnCopyOfTheStateAndBothRunAtOnce() throws Exception {
        CyclicBarrier both = new CyclicBarrier(2);
        List<Engine> ran = Collections.synchronizedList(new ArrayList<>());
        UnaryOperator<Tensor> meetTheOther = x -> {
            boolean warmUp = true;
            for (float v : x.toFloatArray()) warmUp &= v == 0f;
            if (!warmUp && ran.size() < 2) {
                ran.add(x.engine());
                try {
                    both.await(20, TimeUnit.SECONDS); // returns only once the other worker holds a batch as well
                } catch (Exception e) {
                    throw new IllegalStateException("the other partition never ran a batch", e);
                }
            }
            return MODEL.predict(STATE.to(x.engine()), x);
        };
        try (Serving s = Serving.of(MODEL, STATE, meetTheOther).engines("cpu").engines(CPU, TWIN).batchSize(1).batchTimeout(Duration.ZERO).start()) {
            CompletableFuture<Tensor> a = s.submit(ServingTest.rows(1, 1)), b = s.submit(ServingTest.rows(1, 2));
            assertArrayEquals(MODEL.predict(STATE, ServingTest.rows(1, 1)).toFloatArray(), a.get(30, TimeUnit.SECONDS).toFloatArray(), 1e-6f);
            assertArrayEquals(MODEL.predict(STATE, ServingTest.rows(1, 2)).toFloatArray(), b.get(30, TimeUnit.SECONDS).toFloatArray(), 1e-6f);
            assertTrue(ran.contains(CPU) && ran.contains(TWIN), "one batch ran on each engine: " + ran);
        }
    }

    @Test
    void partitionsKStillMeansKWorkersOnTheStatesEngine() throws Exception {
        try (Serving s = Serving.of(MODEL, STATE).engines(CPU, TWIN).partitions(3).start()) {
            assertEquals(List.of(CPU, CPU, CPU), s.engines());
            Tensor x = ServingTest.rows(4, 5);
            assertArrayEquals(MODEL.predict(STATE, x).toFloatArray(), s.submit(x).get(20, TimeUnit.SECONDS).toFloatArray(), 1e-6f);
        }
    }

    @Test
    void unknownUnavailableOrFailingEnginesAreRefusedWithTheReason() {
        JBurnException unknown = assertThrows(JBurnException.class, () -> Serving.of(MODEL, STATE).engines("cpu, nope"));
        assertTrue(unknown.getMessage().contains("cannot serve on engine 'nope'") && unknown.getMessage().contains("Available"), unknown.getMessage());
        assertTrue(assertThrows(JBurnException.class, () -> Serving.of(MODEL, STATE).engines("cpu,,cpu")).getMessage().contains("empty name"));
        assertThrows(JBurnException.class, () -> Serving.of(MODEL, STATE).engines(" "));
        assertThrows(JBurnException.class, () -> Serving.of(MODEL, STATE).engines(new Engine[0]));
        assertTrue(assertThrows(JBurnException.class, () -> Serving.of(MODEL, STATE).engines(CPU, null)).getMessage().contains("engine 1 of 2 is null"));

        Engine noMemory = engine("full", b -> failing(b, "upload", "out of device memory"));
        JBurnException copy = assertThrows(JBurnException.class, () -> Serving.of(MODEL, STATE).engines(CPU, noMemory).start());
        assertTrue(copy.getMessage().contains("cannot copy the state of model 'tiny' to engine 'full'")
                && copy.getMessage().contains("out of device memory"), copy.getMessage());
        Engine noKernels = engine("broken", b -> failing(b, "execute", "no kernel for dot"));
        JBurnException compile = assertThrows(JBurnException.class, () -> Serving.of(MODEL, STATE).engines(noKernels).start());
        assertTrue(compile.getMessage().contains("bucket 1 of model 'tiny' on engine 'broken' failed")
                && compile.getMessage().contains("no kernel for dot"), compile.getMessage());
    }

    /** {@code backend} with every call to {@code method} failing with {@code message}. */
    private static Backend failing(Backend backend, String method, String message) {
        return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class}, (proxy, m, args) -> {
            if (m.getName().equals(method)) throw new IllegalStateException(message);
            try {
                return m.invoke(backend, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    @Test
    void closingLeavesTheCallersStateOpen() {
        Serving s = Serving.of(MODEL, STATE).engines(TWIN).start();
        try (Tensor x = ServingTest.rows(1, 3)) {
            assertEquals(Shape.of(1, 3), s.submit(x).join().shape());
        }
        s.close();
        for (Tensor t : STATE.params().values()) assertFalse(t.isClosed(), "the caller's state stays open");
    }
}
