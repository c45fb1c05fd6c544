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

    /** False once the memory is freed. */
    boolean isAlive();
}
