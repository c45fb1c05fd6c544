package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Device memory comes back: closed tensors free their VMA allocations, forgotten ones through the GC. */
class VulkanMemoryTest {
    private static Engine vk;

    /**
     * An engine of this class's own: these tests count live bytes, allocations and cached bytes exactly, and the
     * shared engine holds other test classes' forgotten tensors, which the cleaner may free at any moment.
     */
    @BeforeAll
    static void requireDevice() {
        TestDevice.require();
        vk = Engine.create(privateEngine(false), EngineConfig.defaults());
    }

    @AfterAll
    static void closeEngine() {
        if (vk != null) vk.backend().close();
    }

    private static VulkanBackend backend(Engine e) { return (VulkanBackend) e.backend(); }

    @Test
    void closingTensorsReturnsTheirAllocations() {
        VulkanBackend b = backend(vk);
        b.releaseCachedMemory();
        MemoryStats before = b.memoryStats();
        for (int round = 0; round < 200; round++) {
            try (Tensor t = Tensor.zeros(Shape.of(256, 33), DType.F32).to(vk);
                 Tensor u = t.transpose()) {
                assertEquals(256 * 33, u.shape().size());
            }
        }
        // Tensors of the default engine may have lived on vulkan too; what matters is that none is left.
        assertTrue(b.memoryStats().cachedBytes() > 0, "closed buffers are kept for reuse");
        b.releaseCachedMemory();
        MemoryStats after = b.memoryStats();
        assertEquals(before.allocations(), after.allocations(), () -> "before " + before + ", after " + after);
        assertEquals(before.allocationBytes(), after.allocationBytes());
    }

    @Test
    void aBigAllocationIsReturnedOnClose() {
        VulkanBackend b = backend(vk);
        b.releaseCachedMemory();
        long base = b.memoryStats().allocationBytes();
        Tensor t = Tensor.zeros(Shape.of(1 << 22), DType.F32).to(vk);
        assertTrue(b.memoryStats().allocationBytes() >= base + (4L << 22));
        t.close();
        MemoryStats closed = b.memoryStats();
        assertEquals(base, closed.allocationBytes() - closed.cachedBytes(), closed::toString);
        b.releaseCachedMemory();
        assertEquals(base, b.memoryStats().allocationBytes());
    }

    @Test
    void aClosedBufferServesTheNextRequestOfItsSizeClass() {
        // Straight through the backend: with the vulkan jar present the default engine may be vulkan
        // itself (it is on a discrete GPU), and then Tensor.zeros would add allocations of its own.
        VulkanBackend b = backend(vk);
        b.releaseCachedMemory();
        float[] sevens = new float[1 << 20];
        java.util.Arrays.fill(sevens, 7f);
        Buffer first = b.upload(MemorySegment.ofArray(sevens));
        first.release();
        MemoryStats cached = b.memoryStats();
        assertTrue(cached.cachedBytes() >= 4L << 20, cached::toString);
        // A slightly smaller request falls in the same class: no new VMA allocation.
        Buffer second = b.allocate((4L << 20) - 4000);
        try {
            MemoryStats now = b.memoryStats();
            assertEquals(cached.allocations(), now.allocations(), now::toString);
            assertEquals(cached.cacheReuses() + 1, now.cacheReuses(), now::toString);
            assertEquals(cached.cachedBytes() - BufferCache.sizeClass(4L << 20), now.cachedBytes());
            float[] back = new float[(int) (second.byteSize() / 4)];
            b.download(second, 0, MemorySegment.ofArray(back));
            assertEquals(0f, back[0], "allocate() zero-fills a reused buffer, which held sevens");
            assertEquals(0f, back[back.length - 1]);
        } finally {
            second.release();
        }
    }

    @Test
    void sizeClassesWasteLittle() {
        assertEquals(256, BufferCache.sizeClass(1));
        assertEquals(1024, BufferCache.sizeClass(1000));
        assertEquals(1 << 20, BufferCache.sizeClass(1 << 20));
        for (long n : new long[] {(1 << 20) + 1, 3_000_000, 64L << 20, (64L << 20) + 7, 1_000_000_007L}) {
            long c = BufferCache.sizeClass(n);
            assertTrue(c >= n && c <= n + n / 15, n + " -> " + c);
        }
    }

    @Test
    void anImpossibleAllocationIsAJBurnExceptionWithSizes() {
        var e = assertThrows(dev.jburn.JBurnException.class, () -> vk.backend().allocate(1L << 50));
        assertEquals("allocate", e.op());
        assertTrue(e.reason().contains("out of device memory: requested " + (1L << 50) + " bytes"), e.reason());
    }

    @Test
    void liveBytesCountABufferFromAllocationToRelease() {
        // Straight through the backend, so that no tensor of the default engine adds buffers meanwhile.
        VulkanBackend b = backend(vk);
        long base = b.stats().liveBytes();
        Buffer fresh = b.allocate(5000);
        assertEquals(base + BufferCache.sizeClass(5000), b.stats().liveBytes(), "a new buffer counts its size class");
        fresh.release();
        assertEquals(base, b.stats().liveBytes(), "a released buffer is not live, although it is cached");
        Buffer reused = b.allocate(5000);
        assertEquals(base + BufferCache.sizeClass(5000), b.stats().liveBytes(), "a buffer from the cache is live again");
        reused.release();
        assertEquals(base, b.stats().liveBytes());
    }

    @Test
    void shapeSpecificPipelinesAreDestroyedOnceTheKernelCacheLetsThemGo() throws InterruptedException {
        VulkanBackend b = backend(vk);
        float[] values = new float[37 * 3];
        for (int i = 0; i < values.length; i++) values[i] = i * 0.01f;
        float[] first;
        try (Tensor host = Tensor.of(values).reshape(37, 3); Tensor x = host.to(vk); Tensor y = x.sin()) { // a shape no other test uses
            first = y.toFloatArray();
        }
        long live = b.stats().livePipelines();
        b.elementwise.forgetPipelines(); // what the cache does at its bound
        for (int attempt = 0; attempt < 100 && b.stats().livePipelines() >= live; attempt++) {
            b.synchronize(); // the queue holds what it bound until a later submission sees it finish
            System.gc();
            Thread.sleep(20);
        }
        assertTrue(b.stats().livePipelines() < live, "live pipelines " + b.stats().livePipelines() + ", before " + live);
        long created = b.stats().pipelinesCreated();
        try (Tensor host = Tensor.of(values).reshape(37, 3); Tensor x = host.to(vk); Tensor y = x.sin()) {
            assertArrayEquals(first, y.toFloatArray(), "the kernel is built again and gives the same values");
        }
        assertEquals(created + 1, b.stats().pipelinesCreated());
    }

    @Test
    void forgottenTensorsAreFreedByTheCleaner() throws InterruptedException {
        VulkanBackend b = backend(vk);
        long base = b.stats().liveBuffers();
        for (int i = 0; i < 100; i++) {
            Tensor.zeros(Shape.of(1024), DType.F32).to(vk).transpose(); // never closed
        }
        for (int attempt = 0; attempt < 100 && b.stats().liveBuffers() > base; attempt++) {
            // A submission still in flight holds the buffers it uses (on a discrete GPU even zeros() is a
            // queued fill), until it is seen to finish: wait for the queue, as any later download would.
            b.synchronize();
            System.gc();
            Thread.sleep(20);
        }
        assertTrue(b.stats().liveBuffers() <= base, "live buffers " + b.stats().liveBuffers() + " > " + base);
    }

    @Test
    void closingTheEngineFreesItsMemoryAndLaterUseFailsCleanly() {
        Engine e = Engine.create(privateEngine(false), EngineConfig.defaults());
        Tensor kept = Tensor.zeros(Shape.of(100), DType.F32).to(e);
        Tensor.zeros(Shape.of(100), DType.F32).to(e); // forgotten: its cleaner may run after close
        VulkanBackend b = backend(e);
        e.backend().close();
        assertEquals(0, b.stats().liveBuffers());
        assertEquals(0, b.stats().liveBytes(), "close frees every live buffer, and counts it");
        assertThrows(dev.jburn.JBurnException.class, b::memoryStats, "the allocator is gone: a clear error, not a read of freed memory");
        b.synchronize();
        b.releaseCachedMemory();
        assertThrows(dev.jburn.JBurnException.class, () -> kept.add(kept).close());
        kept.close(); // a release after close does nothing
        System.gc();
    }

    /** A second, private vulkan engine (not the shared one from Engine.select). */
    private static EngineProvider privateEngine(boolean staging) {
        return new EngineProvider() {
            @Override public String name() { return "vulkan"; }
            @Override public int priority() { return -100; }
            @Override public Availability availability() { return new VulkanProvider().availability(); }
            @Override public Backend create(EngineConfig c) { return new VulkanBackend(VulkanConfig.fromSystemProperties().withForceStaging(staging)); }
        };
    }

    @Test
    void theStagingPathCopiesLikeTheMappedPath() {
        Engine e = Engine.create(privateEngine(true), EngineConfig.defaults());
        try {
            float[] v = new float[1000];
            for (int i = 0; i < v.length; i++) v[i] = i * 0.5f - 3;
            try (Tensor x = Tensor.of(v).reshape(10, 100).to(e);
                 Tensor z = Tensor.zeros(Shape.of(7), DType.F32).to(e);
                 Tensor xt = x.transpose()) {
                assertArrayEquals(v, x.toFloatArray());
                assertArrayEquals(new float[7], z.toFloatArray());
                float[] t = xt.toFloatArray();
                assertEquals(v[3 * 100 + 42], t[42 * 10 + 3]);
            }
            // Past the 64 KiB carried in the command buffer, a staging buffer; an odd length is rounded up to 4 bytes inline.
            float[] big = new float[20_000];
            for (int i = 0; i < big.length; i++) big[i] = i - 7.25f;
            boolean[] odd = {true, false, true, true, false, false, true};
            try (Tensor x = Tensor.of(big).to(e); Tensor y = Tensor.of(odd).to(e)) {
                assertArrayEquals(big, x.toFloatArray());
                assertArrayEquals(odd, y.toBooleanArray());
            }
        } finally {
            e.backend().close();
        }
    }
}
