package dev.jburn.vulkan;

import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

/**
 * The {@code vulkan} engine: any Vulkan 1.2 device with a compute queue (NVIDIA, AMD, Intel, or
 * Mesa's lavapipe on the CPU). Select it with {@code Engine.select("vulkan")} or
 * {@code -Djburn.engine=vulkan}; run the JVM with {@code --enable-native-access=ALL-UNNAMED}
 * and {@code -Dorg.lwjgl.system.memoryBackend=ffm}.
 */
public final class VulkanProvider implements EngineProvider {
    private static volatile Availability cached;

    @Override public String name() { return "vulkan"; }

    /** Above the cpu engine (0) so a real GPU is the default; below CUDA-specific engines. */
    @Override public int priority() { return 40; }

    @Override
    public Availability availability() {
        Availability a = cached;
        if (a == null) {
            synchronized (VulkanProvider.class) {
                if (cached == null) cached = probe(VulkanConfig.fromSystemProperties());
                a = cached;
            }
        }
        return a;
    }

    /** Probes the loader, the devices and the native libraries for {@code config}; never throws. */
    static Availability probe(VulkanConfig config) {
        try {
            try (VulkanInstance vk = VulkanInstance.open()) {
                DeviceChoice.Result r = DeviceChoice.choose(vk.candidates(), config.device());
                if (r.device().isEmpty()) return Availability.no(r.reason());
                try {
                    ShaderCompiler.touch();
                } catch (Throwable t) {
                    return Availability.no("shaderc native library could not be loaded: " + t);
                }
                try {
                    Class.forName("org.lwjgl.util.vma.Vma", true, VulkanProvider.class.getClassLoader());
                } catch (Throwable t) {
                    return Availability.no("VMA native library could not be loaded: " + t);
                }
                return Availability.yes(r.device().get().name() + " (" + r.device().get().kind().name().toLowerCase(java.util.Locale.ROOT) + ")");
            }
        } catch (Throwable t) {
            String msg = t.getMessage() == null ? t.toString() : t.getMessage();
            return Availability.no(msg.startsWith("no Vulkan") ? msg : "Vulkan unavailable: " + msg);
        }
    }

    @Override
    public Backend create(EngineConfig config) {
        return new VulkanBackend(VulkanConfig.fromSystemProperties());
    }
}
