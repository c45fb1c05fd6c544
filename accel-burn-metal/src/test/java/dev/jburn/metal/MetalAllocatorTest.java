package dev.jburn.metal;

import dev.jburn.JBurnException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link MetalAllocator} against {@link FakeObjc}: size classes, reuse, the cleaner, trim, and release of everything on close. */
class MetalAllocatorTest {
    private static long newBuffers(FakeObjc fake) {
        return fake.selectorsSent().stream().filter(s -> s.startsWith("newBuffer")).count();
    }

    @Test
    void sizeClasses() {
        assertEquals(256, MetalAllocator.sizeClass(0));
        assertEquals(256, MetalAllocator.sizeClass(256));
        assertEquals(512, MetalAllocator.sizeClass(257));
        assertEquals(1L << 20, MetalAllocator.sizeClass((1L << 20) - 1));
        assertEquals(2L << 20, MetalAllocator.sizeClass((1L << 20) + 1));
        assertThrows(JBurnException.class, () -> MetalAllocator.sizeClass(-1));
    }

    @Test
    void aClosedLeaseIsReusedAndTrimGivesItBack() {
        FakeObjc fake = new FakeObjc();
        try (MetalDevice gpu = MetalDevice.open(new Objc(fake))) {
            MetalAllocator pool = new MetalAllocator(gpu);
            MetalAllocator.Lease a = pool.allocate(1000);
            assertEquals(1000, a.contents().byteSize());
            MetalDevice.SharedBuffer first = a.buffer();
            a.close();
            a.close();
            assertThrows(JBurnException.class, a::contents);
            assertEquals(1024, pool.cachedBytes());
            try (MetalAllocator.Lease b = pool.allocate(900)) {
                assertEquals(first, b.buffer(), "same class: the cached buffer");
            }
            assertEquals(1, newBuffers(fake));
            pool.trim();
            assertEquals(0, pool.cachedBytes());
            assertEquals(1, fake.selectorsSent().stream().filter("release"::equals).count());
            pool.allocate(300).close();
        }
        assertEquals(List.of(), fake.leaks(), "the device releases what the allocator still caches");
    }

    @Test
    void aForgottenLeaseComesBackThroughTheCleaner() throws Exception {
        FakeObjc fake = new FakeObjc();
        try (MetalDevice gpu = MetalDevice.open(new Objc(fake))) {
            MetalAllocator pool = new MetalAllocator(gpu);
            forget(pool);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (pool.cachedBytes() == 0 && System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(20);
            }
            assertEquals(4096, pool.cachedBytes(), "the cleaner returned the forgotten buffer");
            pool.allocate(4000).close();
            assertEquals(1, newBuffers(fake));
        }
        assertTrue(fake.leaks().isEmpty(), fake.leaks().toString());
    }

    private static void forget(MetalAllocator pool) {
        pool.allocate(4096).contents().fill((byte) 1);
    }
}
