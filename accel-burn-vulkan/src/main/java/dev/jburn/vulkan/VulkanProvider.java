package dev.jburn.vulkan;

import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

/**
 * The {@code vulkan} engine: any Vulkan 1.2 device with a compute queue (NVIDIA, AMD, Intel, or
 * Mesa's lavapipe on the CPU). Select it with {@code Engine.select("vulkan")} or
 * {@code -Djburn.engine=vulkan}; run the JVM with {@code --enable-native-access=ALL-UNNAMED}.
 */
public final class VulkanProvider implements EngineProvider {
    /** Priority with a GPU: above the cpu engine (0), so a real GPU is the default engine. */
    static final int GPU_PRIORITY = 40;
    /** Priority on a CPU Vulkan driver (lavapipe): below the cpu engine, which is faster on the same cores. */
    static final int CPU_DEVICE_PRIORITY = -10;

    private record Probe(Availability availability, boolean cpuDevice) {}

    private static volatile Probe cached;

    /** For {@link java.util.ServiceLoader}; the device is probed lazily, on the first {@link #availability()}. */
    public VulkanProvider() {}

    @Override public String name() { return "vulkan"; }

    @Override public int priority() { return probe().cpuDevice() ? CPU_DEVICE_PRIORITY : GPU_PRIORITY; }

    @Override
    public Availability availability() { return probe().availability(); }

    private static Probe probe() {
        Probe p = cached;
        if (p == null) {
            synchronized (VulkanProvider.class) {
                if (cached == null) {
                    VulkanConfig config = VulkanConfig.fromSystemProperties();
                    Availability a = probe(config);
                    cached = new Probe(a, a.available() && a.reason().endsWith("(cpu)"));
                }
                p = cached;
            }
        }
        return p;
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
        } catch (dev.jburn.JBurnException e) {
            return Availability.no(e.reason());
        } catch (Throwable t) {
            return Availability.no("Vulkan unavailable: " + VulkanInstance.rootMessage(t));
        }
    }

    @Override
    public Backend create(EngineConfig config) {
        return new VulkanBackend(VulkanConfig.fromSystemProperties());
    }
}
