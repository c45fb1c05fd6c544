package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Several threads use one engine at once: submissions interleave on the queue, results are read
 * while other threads' kernels are still queued, and buffers are released (and reused from the
 * cache) while kernels that read them may still be in flight. Every result must be exact.
 */
class VulkanConcurrencyTest {
    private static Engine vk;

    @BeforeAll
    static void requireDevice() {
        vk = TestDevice.engine();
    }

    @Test
    void threadsSharingTheEngineGetExactResults() throws Exception {
        int threads = 4, rounds = 60, n = 4096;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                done.add(pool.submit(() -> {
                    for (int r = 0; r < rounds; r++) {
                        float k = id * 1000 + r;
                        try (Tensor i = Tensor.iota(Shape.of(n), DType.F32).to(vk);
                             Tensor a = i.multiply(2.0);          // queued, then released below while...
                             Tensor b = a.add((double) k);        // ...this kernel may still read it
                             Tensor c = b.subtract(i)) {          // i + k: exact in f32 for these sizes
                            a.close();
                            float[] got = c.toFloatArray();
                            for (int j = 0; j < n; j += 97) assertEquals(j + k, got[j], "thread " + id + " round " + r + " at " + j);
                            assertEquals(n - 1 + k, got[n - 1]);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdownNow();
        }
    }
}
