package dev.jburn.vulkan;

import dev.jburn.JBurnException;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The one thread that creates and destroys the engine's Vulkan objects.
 *
 * <p>Why: on the H200, NVIDIA's driver (as {@code libEGL_nvidia.so.0}, the ICD that starts
 * headless) crashes the process with SIGSEGV in one of its own threads when the device and
 * instance are destroyed on a thread other than the one that created them: measured there,
 * closing on the creating thread ends cleanly, closing on any other thread (the JVM's shutdown
 * hook, or a plain second thread) crashes every time. Kernels may still be submitted from any
 * thread; only creation and destruction come here. A daemon thread, so it never keeps the JVM alive.
 */
final class DeviceThread {
    private final ExecutorService exec = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "jburn-vulkan-device");
        t.setDaemon(true);
        return t;
    });
    private volatile Thread thread;

    /** Runs {@code work} on this thread (directly when already on it) and returns its result; its exceptions are rethrown. */
    <T> T call(Callable<T> work) {
        if (Thread.currentThread() == thread) return run(work);
        Future<T> f = exec.submit(() -> {
            thread = Thread.currentThread();
            return work.call();
        });
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new JBurnException("vulkan", "device thread: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JBurnException("vulkan", "interrupted while waiting for the device thread");
        }
    }

    private static <T> T run(Callable<T> work) {
        try {
            return work.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new JBurnException("vulkan", e.toString());
        }
    }

    /** Lets the thread end once its queue is empty. */
    void shutdown() { exec.shutdown(); }
}
