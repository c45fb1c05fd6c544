package dev.jburn.vulkan;

/**
 * Device memory in use according to VMA.
 *
 * @param allocations     live allocations (one per live or cached tensor buffer, plus the engine's own few)
 * @param allocationBytes their bytes
 * @param blocks          {@code VkDeviceMemory} blocks VMA holds (allocations are carved out of these)
 * @param blockBytes      the blocks' bytes
 * @param cachedBytes     bytes of freed tensor buffers kept for reuse (counted in {@code allocationBytes});
 *                        {@link VulkanBackend#releaseCachedMemory()} frees them
 * @param cacheReuses     tensor buffers served from that cache so far (each one a VMA allocation saved)
 */
public record MemoryStats(long allocations, long allocationBytes, long blocks, long blockBytes, long cachedBytes, long cacheReuses) {}
