package dev.jburn.kernels;

import dev.jburn.DType;

import java.util.List;

/**
 * The parts of a C-like kernel language that differ between GPU APIs: types, bit casts, math
 * function names, buffer declarations and the kernel frame. Everything else — the meaning of
 * every op, conversions, rounding of narrow types — is written once by {@link Emitter} and
 * {@link Prelude} in the subset that CUDA C++, GLSL 4.50 and MSL share.
 */
public sealed interface Dialect permits CudaDialect, GlslDialect, MetalDialect {
    /** CUDA C++ for NVRTC. */
    Dialect CUDA = new CudaDialect();
    /** GLSL 4.50 compute shaders for shaderc / Vulkan. */
    Dialect GLSL = new GlslDialect();
    /** The Metal Shading Language for Apple GPUs (no 64-bit floats: see {@link MetalDialect}). */
    Dialect METAL = new MetalDialect();

    /** A short name: {@code cuda}, {@code glsl}, {@code msl}. */
    String name();

    /**
     * The lines before the shared prelude: version and extensions, and the type names the shared
     * code uses ({@code u32 i32 u64 i64 f32 f64 idx_t}) and macros {@code FN} (function qualifier),
     * {@code F2U U2F} (float bits), {@code D_HI} (high word of a double), {@code MSB32} (index of the
     * highest set bit, -1 for 0), {@code POPC32}.
     */
    String header(DeviceFeatures f);

    /** The storage type of one element of {@code t} in a buffer (F16/BF16: their 16 bits). */
    String storageType(DType t);

    /** The name of a one-argument math function ({@code exp, log, sin, trunc, ...}) on compute type {@code f32} or {@code f64}, or null when the dialect lacks it for that type. */
    String math(String fn, boolean f64);

    /**
     * A double-precision log for helpers whose results are rounded to f32 (erfInv of f32), on a
     * device with 64-bit floats: accurate to a few double ulps, not necessarily the f64 {@code log}
     * op's. Null when the dialect has none.
     */
    default String log64() { return math("log", true); }

    /** Whether the dialect's f32 {@code fn} (of {@link #math} or {@link #math2}) exists only on devices with 64-bit floats (it is computed in double). */
    default boolean needsFloat64(String fn) { return false; }

    /**
     * The correctly rounded quotient {@code a / b} of compute type {@code f64} or {@code f32}, on a
     * device that has (or lacks) 64-bit floats. The language's {@code /} where it is exact.
     */
    default String divide(boolean f64, boolean deviceHasFloat64, String a, String b) { return "(" + a + " / " + b + ")"; }

    /** The name of a two-argument math function ({@code fmod, pow, atan2}), or null when missing. */
    String math2(String fn, boolean f64);

    /** A literal of {@code f32} with these bits. */
    String f32Bits(int bits);

    /** A literal of {@code f64} with these bits. */
    String f64Bits(long bits);

    /** A 64-bit integer literal ({@code u64} when {@code unsigned}). */
    String int64Literal(long v, boolean unsigned);

    /**
     * The kernel's opening: the signature or buffer declarations for {@code inputs} (bindings 0..n-1)
     * and the output (binding n), then the element index {@code i} (type {@code idx_t}) and a return
     * when {@code i >= n}; CUDA kernels loop over a grid-stride instead.
     */
    String open(String name, List<DType> inputs, DType out);

    /** Closes what {@link #open} opened. */
    String close();

    /** Element {@code index} of input {@code k}, as stored. */
    String read(int k, String index);

    /** A statement storing the stored-type value {@code value} at output {@code index}. */
    String write(int outBinding, String index, String value);

    /**
     * A reduction kernel's opening: buffers as in {@link #open}, a workgroup-shared array
     * {@code sh[256]} of type {@code acc}, then the output element {@code o} of this workgroup
     * (type {@code idx_t}; CUDA loops over a grid stride, GLSL and MSL return when {@code o >= n}) and the
     * thread's index {@code t} (a {@code u32} below 256) in its workgroup of 256.
     */
    String openReduction(String name, List<DType> inputs, DType out, String acc);

    /** Closes what {@link #openReduction} opened. */
    String closeReduction();

    /** A workgroup barrier that also orders shared-memory accesses. */
    String barrier();

    /** {@code value} (a compute-type expression) converted to the storage type of {@code t}. */
    String toStorage(DType t, String value);
}
