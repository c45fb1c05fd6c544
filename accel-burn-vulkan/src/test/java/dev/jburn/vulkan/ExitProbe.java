package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.Tensor;

/**
 * Opens the Vulkan engine, runs a few kernels, prints a line and lets the JVM exit normally: the
 * exit status says whether the process ended cleanly (the H200 once died with SIGSEGV here, in a
 * driver thread). Run by {@code gpu/run-h200.sh} with {@code -Djburn.vulkan.pinDriver=true} and
 * {@code false}. Not a test.
 */
public final class ExitProbe {
    private ExitProbe() {}

    public static void main(String[] args) {
        Engine vk = Engine.select("vulkan");
        try (Tensor a = Tensor.of(new float[] {1, 2, 3, 4}).to(vk).reshape(2, 2);
             Tensor b = a.add(a).dot(a)) {
            System.out.println("EXIT PROBE " + ((VulkanBackend) vk.backend()).config() + " result " + java.util.Arrays.toString(b.toFloatArray()));
        }
    }
}
