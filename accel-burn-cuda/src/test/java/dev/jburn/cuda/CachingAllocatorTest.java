package dev.jburn.cuda;

import dev.jburn.JBurnException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The allocator against a fake device with a byte budget that logs every call. */
class CachingAllocatorTest {
    static final class FakeDevice implements DeviceMemory {
        final long capacity;
        final Map<Long, Long> blocks = new HashMap<>();
        final List<String> log = new ArrayList<>();
        long used, nextPointer = 0x1000;

        FakeDevice(long capacity) { this.capacity = capacity; }

        @Override public long allocate(long bytes) {
            if (used + bytes > capacity) {
                log.add("oom " + bytes);
                return 0;
            }
            long p = nextPointer;
            nextPointer += bytes;
            blocks.put(p, bytes);
            used += bytes;
            log.add("alloc " + bytes);
            return p;
        }

        @Override public void free(long pointer) {
            Long b = blocks.remove(pointer);
            if (b == null) throw new AssertionError("double or foreign free of " + pointer);
            used -= b;
            log.add("free " + b);
        }

        @Override public long[] info() { return new long[] {capacity - used, capacity}; }

        @Override public void synchronize() { log.add("sync"); }
    }

    @Test
    void sizeClassesArePowersOfTwoThenWholeMebibytes() {
        assertEquals(0, CachingAllocator.sizeClass(0));
        assertEquals(512, CachingAllocator.sizeClass(1));
        assertEquals(512, CachingAllocator.sizeClass(512));
        assertEquals(1024, CachingAllocator.sizeClass(513));
        assertEquals(1 << 20, CachingAllocator.sizeClass((1 << 19) + 1));
        assertEquals(1 << 20, CachingAllocator.sizeClass(1 << 20));
        assertEquals(2 << 20, CachingAllocator.sizeClass((1 << 20) + 1));
        assertEquals(256L << 20, CachingAllocator.sizeClass(64L << 22));
        assertEquals(3L << 20, CachingAllocator.sizeClass((2L << 20) + 7));
        for (long n = 1; n < 5_000_000; n = n * 3 + 1) {
            long c = CachingAllocator.sizeClass(n);
            assertTrue(c >= n && c < 2 * n + 512 && (c <= (1 << 20) || c - n < (1 << 20)), n + " -> " + c);
        }
        assertThrows(IllegalArgumentException.class, () -> CachingAllocator.sizeClass(-1));
    }

    @Test
    void returnedBlocksAreReusedWithoutTouchingTheDevice() {
        FakeDevice dev = new FakeDevice(1 << 30);
        CachingAllocator a = new CachingAllocator(dev);
        CachingAllocator.Block b1 = a.allocate(1000, "t");
        assertEquals(1024, b1.capacity());
        assertEquals(1024, a.liveBytes());
        a.recycle(b1);
        assertEquals(0, a.liveBytes());
        assertEquals(1024, a.cachedBytes());
        CachingAllocator.Block b2 = a.allocate(700, "t");
        assertEquals(b1.pointer(), b2.pointer(), "same class reuses the block");
        CachingAllocator.Block b3 = a.allocate(100, "t");
        assertNotEquals(b2.pointer(), b3.pointer());
        assertEquals(List.of("alloc 1024", "alloc 512"), dev.log, "no sync and no free for reuse");
        assertEquals(0, a.allocate(0, "t").pointer(), "empty buffers take no memory");
    }

    @Test
    void outOfMemoryTrimsTheCacheAfterWaitingForTheStreamThenRetries() {
        FakeDevice dev = new FakeDevice(4 << 20);
        CachingAllocator a = new CachingAllocator(dev);
        CachingAllocator.Block big = a.allocate(3 << 20, "t");
        a.recycle(big);
        CachingAllocator.Block other = a.allocate(2 << 20, "t");
        assertEquals(2 << 20, other.capacity());
        assertEquals(List.of("alloc 3145728", "oom 2097152", "sync", "free 3145728", "alloc 2097152"), dev.log,
                "cached memory is freed only after the stream drained");
        assertEquals(2 << 20, a.reservedBytes());
    }

    @Test
    void outOfMemoryAfterTrimNamesRequestedAndFreeBytes() {
        FakeDevice dev = new FakeDevice(4 << 20);
        CachingAllocator a = new CachingAllocator(dev);
        a.allocate(3 << 20, "t");
        JBurnException e = assertThrows(JBurnException.class, () -> a.allocate(2_000_000, "exp"));
        assertEquals("exp", e.op());
        assertTrue(e.reason().contains("requested 2000000 bytes") && e.reason().contains((1 << 20) + " of " + (4 << 20)), e.reason());
    }

    @Test
    void outOfMemoryCollectsForgottenTensorsBeforeFailing() {
        FakeDevice dev = new FakeDevice(4 << 20);
        CachingAllocator a = new CachingAllocator(dev);
        CachingAllocator.Block big = a.allocate(3 << 20, "t");
        // a forgotten tensor: its cleaner gives the block back once the collector finds it unreachable
        java.lang.ref.Cleaner.create().register(new Object(), () -> a.recycle(big));
        CachingAllocator.Block other = a.allocate(2 << 20, "t");
        assertEquals(2 << 20, other.capacity());
        assertEquals(List.of("alloc 3145728", "oom 2097152", "oom 2097152", "sync", "free 3145728", "alloc 2097152"), dev.log);
    }

    @Test
    void recycleFromOtherThreadsIsQueuedAndCloseFreesTheCache() throws InterruptedException {
        FakeDevice dev = new FakeDevice(1 << 30);
        CachingAllocator a = new CachingAllocator(dev);
        List<CachingAllocator.Block> blocks = new ArrayList<>();
        for (int i = 0; i < 100; i++) blocks.add(a.allocate(4096, "t"));
        Thread t = new Thread(() -> blocks.forEach(a::recycle));
        t.start();
        t.join();
        assertEquals(0, a.liveBytes());
        assertEquals(100 * 4096, a.cachedBytes());
        a.close();
        assertEquals(0, dev.used);
        assertEquals(0, a.reservedBytes());
        a.recycle(new CachingAllocator.Block(0x1, 512));
        assertThrows(JBurnException.class, () -> a.allocate(1, "t"));
    }

    @Test
    void aPoolReusesItsOwnBlocksAndKeepsThemFromOthersUntilReleased() {
        FakeDevice dev = new FakeDevice(1 << 20);
        CachingAllocator a = new CachingAllocator(dev);
        CachingAllocator.Block shared = a.allocate(1000, "test");
        a.recycle(shared);
        CachingAllocator.Pool pool = new CachingAllocator.Pool();
        a.beginPool(pool);
        // Inside the capture: the shared free block is taken over by the pool, then reused by the pool itself.
        CachingAllocator.Block first = a.allocate(1000, "test");
        assertEquals(shared.pointer(), first.pointer());
        a.recycle(first);
        CachingAllocator.Block second = a.allocate(1000, "test");
        assertEquals(first.pointer(), second.pointer(), "freed inside the capture, reused by it");
        CachingAllocator.Block third = a.allocate(1000, "test");
        assertNotEquals(second.pointer(), third.pointer());
        a.endPool();
        assertEquals(2048, pool.bytes());
        assertEquals(2048, a.poolBytes());
        // After the capture, the pool's freed blocks stay out of the shared free lists.
        a.recycle(second);
        a.recycle(third);
        CachingAllocator.Block outside = a.allocate(1000, "test");
        assertNotEquals(second.pointer(), outside.pointer());
        assertNotEquals(third.pointer(), outside.pointer());
        assertEquals(3 * 1024, a.liveBytes(), "pool blocks count as live while the pool holds them");
        // Released: its blocks serve anyone again, and trim gives them back to the device.
        a.releasePool(pool);
        assertEquals(0, a.poolBytes());
        CachingAllocator.Block again = a.allocate(1000, "test");
        assertTrue(again.pointer() == second.pointer() || again.pointer() == third.pointer());
        a.recycle(again);
        a.recycle(outside);
        assertEquals(0, a.liveBytes());
        a.trim();
        assertEquals(0, a.reservedBytes());
        assertTrue(dev.blocks.isEmpty());
    }

    @Test
    void aBlockStillHeldWhenItsPoolIsReleasedGoesToTheSharedListsLater() {
        FakeDevice dev = new FakeDevice(1 << 20);
        CachingAllocator a = new CachingAllocator(dev);
        CachingAllocator.Pool pool = new CachingAllocator.Pool();
        a.beginPool(pool);
        CachingAllocator.Block held = a.allocate(600, "test");
        a.endPool();
        a.releasePool(pool);
        a.recycle(held);
        assertEquals(0, a.liveBytes());
        assertEquals(held.pointer(), a.allocate(600, "test").pointer());
        assertThrows(IllegalStateException.class, () -> a.beginPool(pool), "a released pool cannot capture again");
    }
}
