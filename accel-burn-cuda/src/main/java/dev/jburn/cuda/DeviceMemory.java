package dev.jburn.cuda;

/**
 * Raw device memory as the {@link CachingAllocator} sees it: the driver on a GPU, a fake in tests.
 */
interface DeviceMemory {
    /** A device pointer to {@code bytes} (> 0) new bytes, or 0 when the device is out of memory. */
    long allocate(long bytes);

    /** Frees a pointer {@link #allocate} returned; no queued work may still use it. */
    void free(long pointer);

    /** {@code {free, total}} bytes on the device, for error messages. */
    long[] info();

    /** Waits until all queued work on the engine's stream has finished. */
    void synchronize();
}
