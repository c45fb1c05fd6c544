package dev.jburn.train.comm;

import dev.jburn.dist.*;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.*;

/** ThreadCommunicator: rank-order sums whatever the timing, copies on broadcast, layout checks, abort. */
class ThreadCommunicatorTest {
    /** Runs {@code body(rank, communicator)} on one thread per replica and returns the results by rank (or throws the first failure). */
    static <T> List<T> onReplicas(List<? extends Communicator> group, BiFunction<Integer, Communicator, T> body) throws Exception {
        try (ExecutorService ex = Executors.newFixedThreadPool(group.size())) {
            List<Future<T>> fs = new ArrayList<>();
            for (int r = 0; r < group.size(); r++) {
                int rank = r;
                fs.add(ex.submit(() -> body.apply(rank, group.get(rank))));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : fs) out.add(f.get());
            return out;
        }
    }

    @Test
    void sumsInRankOrderWhateverTheTiming() throws Exception {
        // f32: (1e8 + 1) - 1e8 + 1 is 1 in rank order; other orders give 0 or 2.
        float[] values = {1e8f, 1f, -1e8f, 1f};
        for (int round = 0; round < 10; round++) {
            int seed = round;
            List<float[]> got = onReplicas(ThreadCommunicator.group(4), (r, c) -> {
                try { Thread.sleep((r * 7L + seed * 3L) % 5); } catch (InterruptedException e) { throw new RuntimeException(e); }
                List<Tensor> out = c.allReduce(List.of(Tensor.of(values[r], values[r]), Tensor.of(r)), ReduceOp.SUM);
                assertEquals(6, out.get(1).toIntArray()[0], "s32 sums");
                return out.getFirst().toFloatArray();
            });
            for (float[] g : got) assertArrayEquals(new float[] {1f, 1f}, g);
        }
        List<Double> avg = onReplicas(ThreadCommunicator.group(3), (r, c) -> c.allReduce(Tensor.scalar(r + 1.0, DType.F64), ReduceOp.AVERAGE).item().doubleValue());
        assertEquals(List.of(2.0, 2.0, 2.0), avg);
    }

    @Test
    void broadcastGivesEveryReplicaItsOwnCopyOfTheRootsValues() throws Exception {
        List<Tensor> inputs = new ArrayList<>();
        for (int r = 0; r < 3; r++) inputs.add(Tensor.of(10f * r, 1f));
        List<Tensor> got = onReplicas(ThreadCommunicator.group(3), (r, c) -> c.broadcast(List.of(inputs.get(r)), 1).getFirst());
        inputs.forEach(Tensor::close); // the results do not share the inputs' memory
        for (Tensor t : got) assertArrayEquals(new float[] {10f, 1f}, t.toFloatArray());
    }

    @Test
    void aBarrierHoldsEveryoneUntilAllArrive() throws Exception {
        List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
        onReplicas(ThreadCommunicator.group(2), (r, c) -> {
            if (r == 1) try { Thread.sleep(50); } catch (InterruptedException e) { throw new RuntimeException(e); }
            order.add(r);
            c.barrier();
            order.add(10 + r);
            return null;
        });
        assertEquals(List.of(0, 1), order.subList(0, 2), "nobody leaves the barrier before everyone came");
    }

    @Test
    void mismatchedShapesAndBadArgumentsAreJBurnExceptions() throws Exception {
        Exception e = assertThrows(Exception.class, () -> onReplicas(ThreadCommunicator.group(2),
                (r, c) -> c.allReduce(Tensor.zeros(dev.jburn.Shape.of(r + 2), DType.F32), ReduceOp.SUM)));
        JBurnException j = (JBurnException) e.getCause();
        assertTrue(j.getMessage().contains("allReduce") && j.getMessage().contains("f32[2]") && j.getMessage().contains("f32[3]"), j.getMessage());
        Communicator solo = ThreadCommunicator.group(1).getFirst();
        JBurnException avg = assertThrows(JBurnException.class, () -> solo.allReduce(Tensor.of(1, 2), ReduceOp.AVERAGE));
        assertTrue(avg.getMessage().contains("AVERAGE") && avg.getMessage().contains("s32[2]"), avg.getMessage());
        assertThrows(JBurnException.class, () -> solo.broadcast(List.of(Tensor.of(1f)), 1));
        assertThrows(JBurnException.class, () -> ThreadCommunicator.group(0));
        Tensor closed = Tensor.of(1f);
        closed.close();
        assertThrows(JBurnException.class, () -> solo.allReduce(closed, ReduceOp.SUM));
        Tensor same = Tensor.of(3f);
        Tensor copy = solo.allReduce(same, ReduceOp.SUM);
        assertNotSame(same, copy, "a group of one still returns a new tensor");
        same.close();
        assertEquals(3f, copy.toFloatArray()[0]);
    }

    @Test
    void anAbortedGroupFailsTheWaitingReplicasAtOnce() throws Exception {
        List<ThreadCommunicator> g = ThreadCommunicator.group(2);
        long start = System.nanoTime();
        Exception e = assertThrows(Exception.class, () -> onReplicas(g, (r, c) -> {
            if (r == 1) {
                try { Thread.sleep(100); } catch (InterruptedException x) { throw new RuntimeException(x); }
                c.abort();
                return null;
            }
            return c.allReduce(Tensor.of(1f), ReduceOp.SUM);
        }));
        assertTrue(e.getCause() instanceof JBurnException && e.getCause().getMessage().contains("aborted"), String.valueOf(e.getCause()));
        assertTrue(System.nanoTime() - start < 10e9);
        assertThrows(JBurnException.class, () -> g.getFirst().barrier(), "an aborted group stays aborted");
    }
}
