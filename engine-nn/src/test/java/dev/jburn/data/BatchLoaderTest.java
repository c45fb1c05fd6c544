package dev.jburn.data;

import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Batches in order and shuffled by epoch key, the last batch, the background thread and its failures. */
class BatchLoaderTest {
    private static List<int[]> labels(Iterable<TensorDataset> epoch) {
        List<int[]> out = new ArrayList<>();
        for (TensorDataset b : epoch) out.add(b.y().toIntArray());
        return out;
    }

    @Test
    void inOrderKeepingTheShortLastBatch() {
        try (BatchLoader l = BatchLoader.of(TensorDatasetTest.counting(10), 4)) {
            assertEquals(3, l.batchCount());
            List<int[]> b = labels(l.epoch(0));
            assertEquals(3, b.size());
            assertArrayEquals(new int[] {0, 1, 2, 3}, b.get(0));
            assertArrayEquals(new int[] {8, 9}, b.get(2));
            Iterator<TensorDataset> it = l.epoch(1).iterator();
            TensorDataset first = it.next();
            assertArrayEquals(new float[] {0, 0, 1, 10, 2, 20, 3, 30}, first.x().toFloatArray(), "x rows travel with y");
        }
    }

    @Test
    void dropLast() {
        try (BatchLoader l = BatchLoader.of(TensorDatasetTest.counting(10), 4).dropLast(true)) {
            assertEquals(2, l.batchCount());
            assertEquals(2, labels(l.epoch(0)).size());
        }
    }

    @Test
    void shuffledEpochsAreDeterministicAndUseFoldIn() {
        TensorDataset d = TensorDatasetTest.counting(23);
        Tensor key = Prng.key(11);
        List<int[]> e0, e1;
        try (BatchLoader l = BatchLoader.of(d, 5).shuffle(key)) {
            e0 = labels(l.epoch(0));
            e1 = labels(l.epoch(1));
            assertEquals(flat(e0), flat(labels(l.epoch(0))), "the same epoch again gives the same batches");
        }
        try (BatchLoader again = BatchLoader.of(d, 5).shuffle(Prng.key(11))) {
            assertEquals(flat(e1), flat(labels(again.epoch(1))), "a new loader with the same key gives the same batches");
        }
        assertNotEquals(flat(e0), flat(e1), "epochs differ");
        assertEquals(Arrays.toString(TensorDataset.permutation(Prng.foldIn(key, 1), 23)), Arrays.toString(flatArray(e1)));
        int[] sorted = flatArray(e0);
        Arrays.sort(sorted);
        assertArrayEquals(d.y().toIntArray(), sorted, "every example once per epoch");
        assertEquals(3, e0.get(4).length);
    }

    @Test
    void preparesOnOneDaemonThreadAndCloseStopsIt() throws Exception {
        BatchLoader l = BatchLoader.of(TensorDatasetTest.counting(100), 1);
        Iterator<TensorDataset> it = l.epoch(0).iterator();
        it.next();
        Thread worker = loaderThread();
        assertNotNull(worker, "a background thread prepares batches");
        assertTrue(worker.isDaemon());
        Thread.sleep(100);
        assertEquals(Thread.State.WAITING, worker.getState(), "the queue is bounded: the producer waits for the consumer");
        l.epoch(1).iterator().next(); // restarting stops epoch 0 and reuses the thread
        assertSame(worker, loaderThread());
        assertThrows(JBurnException.class, it::next, "the stopped epoch says so");
        l.close();
        worker.join(5000);
        assertFalse(worker.isAlive(), "close stops the thread");
        assertThrows(JBurnException.class, () -> l.epoch(2).iterator());
        l.close(); // idempotent
    }

    @Test
    void backgroundFailureSurfacesAsJBurnException() {
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4});
        TensorDataset d = TensorDataset.of(x, Tensor.of(0, 1, 2, 3));
        try (BatchLoader l = BatchLoader.of(d, 2).shuffle(Prng.key(0))) {
            x.close();
            Iterator<TensorDataset> it = l.epoch(0).iterator();
            JBurnException e = assertThrows(JBurnException.class, it::next);
            assertTrue(e.getMessage().contains("preparing batch 0 of epoch 0 failed"), e.getMessage());
            assertInstanceOf(JBurnException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().getMessage());
            assertFalse(it.hasNext());
        }
    }

    @Test
    void badArguments() {
        assertThrows(JBurnException.class, () -> BatchLoader.of(TensorDatasetTest.counting(3), 0));
        assertThrows(JBurnException.class, () -> BatchLoader.of(null, 2));
        try (BatchLoader l = BatchLoader.of(TensorDatasetTest.counting(3), 2)) {
            assertThrows(JBurnException.class, () -> l.epoch(-1));
        }
    }

    private static Thread loaderThread() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("jburn-batch-loader") && t.isAlive())
                .findFirst().orElse(null);
    }

    private static List<Integer> flat(List<int[]> batches) {
        List<Integer> out = new ArrayList<>();
        for (int[] b : batches) for (int v : b) out.add(v);
        return out;
    }

    private static int[] flatArray(List<int[]> batches) { return flat(batches).stream().mapToInt(Integer::intValue).toArray(); }
}
