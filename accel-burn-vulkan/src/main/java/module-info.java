/**
 * The Vulkan compute engine ({@code vulkan}): GLSL compute shaders compiled to SPIR-V at run time
 * with shaderc (cached on disk), device memory through VMA, one queue; what it does not run
 * natively runs on the cpu engine through {@link dev.jburn.kernels.HostFallbackBackend}, counted.
 */
module dev.jburn.vulkan {
    requires transitive dev.jburn.api;
    requires transitive dev.jburn.kernels;
    requires org.lwjgl;
    requires org.lwjgl.vulkan;
    requires org.lwjgl.shaderc;
    requires org.lwjgl.vma;

    exports dev.jburn.vulkan;

    provides dev.jburn.spi.EngineProvider with dev.jburn.vulkan.VulkanProvider;
}
