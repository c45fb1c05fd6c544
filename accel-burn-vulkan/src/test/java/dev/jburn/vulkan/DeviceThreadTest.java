package dev.jburn.vulkan;

import dev.jburn.JBurnException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Creation and destruction run on one thread, whoever asks; failures come back to the caller. */
class DeviceThreadTest {
    @Test
    void everyCallRunsOnTheSameThreadWhoeverCalls() throws Exception {
        DeviceThread t = new DeviceThread();
        try {
            Thread first = t.call(Thread::currentThread);
            Thread[] fromOther = new Thread[1];
            Thread other = new Thread(() -> fromOther[0] = t.call(Thread::currentThread));
            other.start();
            other.join();
            assertSame(first, fromOther[0]);
            assertNotSame(Thread.currentThread(), first);
            assertTrue(first.isDaemon(), "never keeps the JVM alive");
            assertSame(first, t.call(() -> t.call(Thread::currentThread)), "a nested call runs inline instead of deadlocking");
        } finally {
            t.shutdown();
        }
    }

    @Test
    void exceptionsReachTheCaller() {
        DeviceThread t = new DeviceThread();
        try {
            JBurnException e = assertThrows(JBurnException.class, () -> t.call(() -> { throw new JBurnException("dot", "out of device memory"); }));
            assertEquals("dot", e.op());
            assertThrows(JBurnException.class, () -> t.call(() -> { throw new java.io.IOException("disk"); }));
        } finally {
            t.shutdown();
        }
    }
}
