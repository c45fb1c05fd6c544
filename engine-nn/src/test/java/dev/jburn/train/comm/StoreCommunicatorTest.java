package dev.jburn.train.comm;

import dev.jburn.dist.*;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** StoreCommunicator over a real TcpStore: the same bits as ThreadCommunicator, cleanup, abort, a hostile client. */
class StoreCommunicatorTest {
    @Test
    void overTcpItGivesThreadCommunicatorsBitsAndCleansUp() throws Exception {
        float[][] values = {{1e8f, 0.1f}, {1f, 0.2f}, {-1e8f, 0.3f}};
        try (TcpStore server = TcpStore.serve("127.0.0.1", 0)) {
            List<Communicator> group = new ArrayList<>();
            List<Store> clients = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                Store s = TcpStore.connect("127.0.0.1", server.port(), Duration.ofSeconds(10));
                clients.add(s);
                group.add(new StoreCommunicator(s, r, 3));
            }
            List<float[]> overTcp = ThreadCommunicatorTest.onReplicas(group, (r, c) -> {
                float[] last = null;
                for (int i = 0; i < 5; i++) last = c.allReduce(Tensor.of(values[r]), ReduceOp.AVERAGE).toFloatArray();
                assertArrayEquals(new float[] {7f, 7f}, c.broadcast(List.of(Tensor.of(7f * r, 7f * r)), 1).getFirst().toFloatArray());
                c.barrier();
                return last;
            });
            List<float[]> inJvm = ThreadCommunicatorTest.onReplicas(ThreadCommunicator.group(3),
                    (r, c) -> c.allReduce(Tensor.of(values[r]), ReduceOp.AVERAGE).toFloatArray());
            for (int r = 0; r < 3; r++) assertArrayEquals(inJvm.get(r), overTcp.get(r), "rank " + r);
            assertTrue(server.keyCount() <= 3, "each replica keeps only its last post, found " + server.keyCount() + " keys");
            clients.forEach(Store::close);
        }
    }

    @Test
    void anAbortReachesTheOtherProcessesAndTimeoutsAreJBurnExceptions() throws Exception {
        try (TcpStore server = TcpStore.serve("127.0.0.1", 0);
             Store a = TcpStore.connect("127.0.0.1", server.port(), Duration.ofSeconds(10));
             Store b = TcpStore.connect("127.0.0.1", server.port(), Duration.ofSeconds(10))) {
            List<Communicator> group = List.of(new StoreCommunicator(a, 0, 2, Duration.ofSeconds(30)), new StoreCommunicator(b, 1, 2, Duration.ofSeconds(30)));
            long start = System.nanoTime();
            Exception e = assertThrows(Exception.class, () -> ThreadCommunicatorTest.onReplicas(group, (r, c) -> {
                if (r == 1) {
                    c.abort();
                    return null;
                }
                return c.allReduce(Tensor.of(1f), ReduceOp.SUM);
            }));
            assertTrue(e.getCause().getMessage().contains("replica 1 aborted"), e.getCause().getMessage());
            assertTrue(System.nanoTime() - start < 20e9, "no wait for the 30 s timeout");
            JBurnException t = assertThrows(JBurnException.class, () -> a.get("never", Duration.ofMillis(50)));
            assertTrue(t.getMessage().contains("never"), t.getMessage());
        }
    }

    @Test
    void aClientSpeakingAnotherProtocolIsDroppedAndTheStoreGoesOn() throws Exception {
        try (TcpStore server = TcpStore.serve("127.0.0.1", 0)) {
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                OutputStream o = s.getOutputStream();
                o.write(new byte[] {1, 0, 1, 'k', 0x7f, 0x7f, 0x7f, 0x7f}); // a SET claiming a 2 GB value
                o.flush();
                assertEquals(-1, s.getInputStream().read(), "the server closes the connection");
            }
            try (Store c = TcpStore.connect("127.0.0.1", server.port(), Duration.ofSeconds(10))) {
                c.set("k", new byte[] {42});
                assertArrayEquals(new byte[] {42}, c.get("k", Duration.ofSeconds(5)));
            }
            JBurnException e = assertThrows(JBurnException.class, () -> TcpStore.connect("127.0.0.1", 1, Duration.ofMillis(300)));
            assertTrue(e.getMessage().contains("127.0.0.1:1"), e.getMessage());
        }
    }
}
