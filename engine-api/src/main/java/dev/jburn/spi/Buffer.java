package dev.jburn.spi;

/**
 * Memory that an engine owns for one or more tensors (reshape shares a buffer). Reference
 * counted: each tensor holds one reference, and the memory is freed when the last is
 * released — deterministically by {@code Tensor.close()}, or by the cleaner when forgotten.
 */
public interface Buffer {
    /** Size in bytes. */
    long byteSize();

    /** Adds a reference and returns this buffer. Fails when the buffer is already freed. */
    Buffer retain();

    /** Drops a reference; the memory is freed when none is left. Idempotent per reference holder is the caller's job. */
    void release();

    /**
     * Drops a reference because its holder became unreachable (the tensor's cleaner ran).
     * Unlike {@link #release()}, a kernel may still be using memory it obtained from this
     * buffer before the holder became unreachable, so the engine must free the memory only
     * once no kernel can touch it (host engines: when the memory segment itself is
     * unreachable; device engines: after the work queued on it has finished).
     */
    void releaseUnreachable();

    /**
     * True when the engine frees this memory by itself once the buffer (and any segment taken
     * from it) is unreachable, so a tensor need not register a cleaner for it. Explicit
     * {@link #release()} still frees at once.
     */
    default boolean freedWhenUnreachable() { return false; }

    /** False once the memory is freed. */
    boolean isAlive();
}
