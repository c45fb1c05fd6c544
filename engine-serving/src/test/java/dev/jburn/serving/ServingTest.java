package dev.jburn.serving;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.*;

/** Batching, splitting, the bounded queue, deadlines, cancellation, failure isolation and graceful shutdown. */
class ServingTest {
    static final Model MODEL = Model.input("x", Shape.of(-1, 4)).dense(3).named("tiny");
    static final ModelState STATE = MODEL.init(Prng.key(0));

    static Tensor rows(int n, int seed) {
        return Prng.uniform(Prng.key(seed), Shape.of(n, 4), DType.F32, -1, 1).values();
    }

    private static ServingException.Kind kindOf(CompletableFuture<Tensor> f) {
        CompletionException e = assertThrows(CompletionException.class, f::join);
        return assertInstanceOf(ServingException.class, e.getCause()).kind();
    }

    /** A function that blocks every batch but the warm-up's (zeros) until {@code gate} opens, counting the rows it runs. */
    private static UnaryOperator<Tensor> gated(CountDownLatch gate, AtomicInteger rowsRun) {
        return x -> {
            boolean warmUp = true;
            for (float v : x.toFloatArray()) warmUp &= v == 0f;
            if (warmUp) return MODEL.predict(STATE, x);
            try {
                assertTrue(gate.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            rowsRun.addAndGet((int) x.shape().dim(0));
            return MODEL.predict(STATE, x);
        };
    }

    @Test
    void concurrentRequestsAreBatchedAndEachGetsItsOwnRows() throws Exception {
        try (Serving s = Serving.of(MODEL, STATE).batchSize(16).batchTimeout(Duration.ofMillis(20)).start()) {
            List<Tensor> inputs = new ArrayList<>();
            List<CompletableFuture<Tensor>> out = new ArrayList<>();
            for (int i = 0; i < 48; i++) inputs.add(rows(1 + i % 3, i));
            for (Tensor x : inputs) out.add(s.submit(x));
            for (int i = 0; i < inputs.size(); i++) {
                float[] want = MODEL.predict(STATE, inputs.get(i)).toFloatArray(), got = out.get(i).get(10, TimeUnit.SECONDS).toFloatArray();
                assertArrayEquals(want, got, 1e-6f, "request " + i);
            }
            ServingMetrics.Snapshot m = s.metrics().snapshot();
            assertEquals(48, m.answered());
            assertTrue(m.batches() < 48, "requests were batched: " + m);
            assertArrayEquals(new int[] {1, 8, 16}, s.buckets());
        }
    }

    @Test
    void aFullBatchRunsWithoutWaitingForTheTimerAndAPartialOneAfterIt() throws Exception {
        try (Serving s = Serving.of(MODEL, STATE).batchSize(4).batchTimeout(Duration.ofSeconds(60)).start()) {
            List<CompletableFuture<Tensor>> out = new ArrayList<>();
            for (int i = 0; i < 4; i++) out.add(s.submit(rows(1, i)));
            for (var f : out) assertNotNull(f.get(20, TimeUnit.SECONDS), "a full batch does not wait 60 s for its timer");
        }
        try (Serving s = Serving.of(MODEL, STATE).batchSize(64).batchTimeout(Duration.ofMillis(10)).start()) {
            assertEquals(2, s.submit(rows(2, 1)).get(20, TimeUnit.SECONDS).shape().dim(0), "the timer runs a partial batch");
        }
    }

    @Test
    void anOversizedRequestIsSplitAcrossBatchesAndReassembled() throws Exception {
        try (Serving s = Serving.of(MODEL, STATE).batchSize(4).batchTimeout(Duration.ZERO).start()) {
            Tensor x = rows(10, 7);
            Tensor y = s.submit(x).get(20, TimeUnit.SECONDS);
            assertEquals(Shape.of(10, 3), y.shape());
            assertArrayEquals(MODEL.predict(STATE, x).toFloatArray(), y.toFloatArray(), 1e-6f);
            assertTrue(s.metrics().snapshot().batches() >= 3);
            assertArrayEquals(MODEL.predict(STATE, x).toFloatArray(), s.run(x).toFloatArray(), 1e-6f, "run() splits as well");
        }
    }

    @Test
    void aFullQueueRefusesAtOnceAndExpiredOrCancelledRequestsNeverRun() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger rowsRun = new AtomicInteger();
        try (Serving s = Serving.of(MODEL, STATE, gated(gate, rowsRun)).batchSize(1).queueCapacity(2).batchTimeout(Duration.ZERO).start()) {
            CompletableFuture<Tensor> first = s.submit(rows(1, 0));   // taken by the worker, which blocks
            while (s.queueDepth() > 0) Thread.sleep(1);
            CompletableFuture<Tensor> late = s.submit(rows(1, 1), Duration.ofMillis(30));
            CompletableFuture<Tensor> cancelled = s.submit(rows(1, 2));
            CompletableFuture<Tensor> refused = s.submit(rows(1, 3));
            assertTrue(refused.isDone(), "a full queue answers at once");
            assertEquals(ServingException.Kind.REJECTED, kindOf(refused));
            assertEquals(ServingException.Kind.TIMED_OUT, kindOf(late));
            cancelled.cancel(true);
            gate.countDown();
            assertNotNull(first.get(20, TimeUnit.SECONDS));
            assertTrue(s.drain(Duration.ofSeconds(20)));
            ServingMetrics.Snapshot m = s.metrics().snapshot();
            assertEquals(1, m.rejected());
            assertEquals(1, m.timedOut());
            assertEquals(1, m.batches(), "neither the expired nor the cancelled request ran");
        }
        assertEquals(1, rowsRun.get(), "only the first request ran");
    }

    @Test
    void aRequestThatFailsFailsAloneAndBadInputIsRefusedAtOnce() throws Exception {
        UnaryOperator<Tensor> faulty = x -> {
            for (float v : x.toFloatArray()) if (v == 666f) throw new IllegalStateException("device fault on a poisoned row");
            return MODEL.predict(STATE, x);
        };
        try (Serving s = Serving.of(MODEL, STATE, faulty).batchSize(8).batchTimeout(Duration.ofMillis(200)).rejectNonFinite(true).start()) {
            CompletableFuture<Tensor> a = s.submit(rows(1, 1)), bad = s.submit(Tensor.of(new float[][] {{666f, 0, 0, 0}})), b = s.submit(rows(2, 2));
            assertNotNull(a.get(20, TimeUnit.SECONDS));
            assertNotNull(b.get(20, TimeUnit.SECONDS));
            assertEquals(ServingException.Kind.FAILED, kindOf(bad));
            assertTrue(assertThrows(CompletionException.class, bad::join).getCause().getMessage().contains("device fault"));

            CompletableFuture<Tensor> shape = s.submit(Tensor.zeros(Shape.of(2, 5), DType.F32));
            assertTrue(shape.isDone());
            assertEquals(ServingException.Kind.BAD_INPUT, kindOf(shape));
            assertTrue(assertThrows(CompletionException.class, shape::join).getCause().getMessage().contains("expects shape [-1, 4]"));
            assertEquals(ServingException.Kind.BAD_INPUT, kindOf(s.submit(Tensor.of(new float[][] {{Float.NaN, 0, 0, 0}}))));
            assertEquals(ServingException.Kind.BAD_INPUT, kindOf(s.submit(Tensor.zeros(Shape.of(0, 4), DType.F32))));
            assertEquals(ServingException.Kind.BAD_INPUT, kindOf(s.submit(null)));
        }
    }

    @Test
    void closeAnswersEverythingAcceptedThenRefuses() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Serving s = Serving.of(MODEL, STATE, gated(gate, new AtomicInteger())).batchSize(2).batchTimeout(Duration.ZERO).shutdownTimeout(Duration.ofSeconds(20)).start();
        List<CompletableFuture<Tensor>> out = new ArrayList<>();
        for (int i = 0; i < 6; i++) out.add(s.submit(rows(1, i)));
        Thread closer = new Thread(s::close);
        closer.start();
        while (s.isReady()) Thread.sleep(1);
        assertEquals(ServingException.Kind.UNAVAILABLE, kindOf(s.submit(rows(1, 9))), "draining refuses new requests");
        gate.countDown();
        closer.join(30_000);
        assertFalse(closer.isAlive(), "close returns in bounded time");
        for (var f : out) assertEquals(Shape.of(1, 3), f.get(1, TimeUnit.SECONDS).shape(), "every accepted request is answered");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        s.metrics().writeText(text);
        String t = text.toString();
        assertTrue(t.contains("jburn_serving_requests_total{model=\"tiny\"} 7.0"), t);
        assertTrue(t.contains("jburn_serving_total_seconds_bucket"), t);
        assertTrue(t.contains("jburn_serving_queue_depth{model=\"tiny\"} 0.0"), t);
    }
}
