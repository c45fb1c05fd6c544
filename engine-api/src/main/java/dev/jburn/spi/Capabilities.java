package dev.jburn.spi;

import dev.jburn.DType;
import dev.jburn.op.Op;

/**
 * What an engine runs natively, op × dtype. The compiler and the eager front end route what
 * is missing to a decomposition or to the CPU engine; nothing fails at run time with
 * "unsupported".
 */
@FunctionalInterface
public interface Capabilities {
    /** Whether {@code op} has a native kernel for inputs of type {@code dtype}. */
    boolean supports(Op op, DType dtype);

    /**
     * Whether f32 arithmetic on this engine treats subnormal values as zero (inputs and results),
     * as GPUs' fast float modes do. This applies to F32 and to BF16 (which computes in f32, with
     * f32's exponent range); F16 and F64 are not affected. The reference engine keeps subnormals,
     * and so should every engine that can: an engine says true only where its device offers no
     * other mode (NVIDIA's Vulkan driver, for one, flushes f32 subnormals and cannot be asked not to).
     * The conformance kit then generates no f32 subnormals and compares subnormal results as zero.
     */
    default boolean flushesF32Subnormals() { return false; }

    /**
     * Whether the engine runs a fused group that ends in a sum over leading axes (a per-feature
     * column sum of a channels-last tensor, as batch norm takes) in one pass. The fusion pass makes
     * such groups only for engines that say so; the others get the sum as a node of its own.
     */
    default boolean fusesLeadingSums() { return false; }

    /** Every op on every dtype (the reference engine). */
    static Capabilities everything() { return (op, dtype) -> true; }
}
