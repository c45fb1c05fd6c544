package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.Tensor;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens the Vulkan engine, runs a few kernels, prints a line and ends the JVM one of several ways;
 * the exit status says whether the process ended cleanly (the H200 dies with SIGSEGV at exit in a
 * thread of NVIDIA's EGL driver library). Run by {@code gpu/run-h200.sh}. Not a test.
 *
 * <pre>
 * java ... dev.jburn.vulkan.ExitProbe [plain | close | close-other-thread | underscore-exit]
 * </pre>
 * {@code plain} returns from main (the engine's shutdown hook closes it, and another hook reports
 * the thread count meanwhile); {@code close} closes the engine on the main thread, then returns;
 * {@code close-other-thread} closes it from a second thread; {@code underscore-exit} closes the
 * engine and ends with libc's {@code _exit(0)}, which skips the C exit handlers (the control).
 */
public final class ExitProbe {
    private ExitProbe() {}

    public static void main(String[] args) throws Throwable {
        String mode = args.length > 0 ? args[0] : "plain";
        int threadsBefore = threads();
        Engine vk = Engine.select("vulkan");
        try (Tensor a = Tensor.of(new float[] {1, 2, 3, 4}).to(vk).reshape(2, 2);
             Tensor b = a.add(a).dot(a)) {
            System.out.println("EXIT PROBE " + mode + " " + ((VulkanBackend) vk.backend()).config() + " result "
                    + java.util.Arrays.toString(b.toFloatArray()) + "; native threads before " + threadsBefore + ", now " + threads());
        }
        switch (mode) {
            case "plain" -> Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                // Reports, from another hook, what the engine's hook leaves behind.
                for (int i = 0; i < 60; i++) {
                    System.out.println("shutdown +" + i * 10 + " ms: " + threads() + " threads, engine "
                            + (((VulkanBackend) vk.backend()).isClosed() ? "closed" : "open"));
                    try { Thread.sleep(10); } catch (InterruptedException e) { return; }
                }
            }));
            case "close" -> {
                long t0 = System.nanoTime();
                vk.backend().close();
                System.out.println("after close (" + (System.nanoTime() - t0) / 1_000_000 + " ms): " + threads() + " threads");
            }
            case "close-other-thread" -> {
                Thread t = new Thread(() -> vk.backend().close(), "closer");
                t.start();
                t.join();
                System.out.println("closed on another thread: " + threads() + " threads");
            }
            case "underscore-exit" -> {
                vk.backend().close();
                System.out.flush();
                Linker l = Linker.nativeLinker();
                l.downcallHandle(l.defaultLookup().find("_exit").orElseThrow(), FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT)).invoke(0);
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    /** Threads of this process (Linux), -1 where that cannot be read. */
    private static int threads() {
        try (var s = Files.list(Path.of("/proc/self/task"))) {
            return (int) s.count();
        } catch (Exception e) {
            return -1;
        }
    }
}
