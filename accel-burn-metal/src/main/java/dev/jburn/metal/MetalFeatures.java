package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.kernels.DeviceFeatures;
import dev.jburn.kernels.KernelSource;

import java.util.List;

/**
 * What this GPU and its Metal compiler offer beyond MSL 2.4, asked once when the engine starts.
 * Simdgroup matrices ({@link MslGemm}) come with GPU family Apple7 (A14, M1 and later). A native
 * {@code bfloat} needs a GPU family that has it (Apple6 and later, or Metal3) and a compiler that
 * speaks MSL 3.1 (macOS 14): the family is asked with {@code supportsFamily:}, the compiler by
 * compiling a one-line kernel that stores a {@code bfloat}; a compile error means no.
 *
 * <pre>{@code
 * MetalFeatures f = MetalFeatures.probe(gpu);
 * DeviceFeatures kernels = f.kernels(); // BF16 buffers declared bfloat where f.bfloat()
 * }</pre>
 *
 * @param simdgroupMatrix {@code simdgroup_float8x8} and its loads, stores and multiply-accumulate
 * @param bfloat          BF16 buffers may be declared {@code bfloat}
 */
record MetalFeatures(boolean simdgroupMatrix, boolean bfloat) {
    /** {@code MTLGPUFamilyApple6}, {@code Apple7}, {@code Metal3}. */
    static final long APPLE6 = 1006, APPLE7 = 1007, METAL3 = 5001;

    /** Nothing beyond MSL 2.4. */
    static final MetalFeatures NONE = new MetalFeatures(false, false);

    /** Asks {@code gpu}. */
    static MetalFeatures probe(MetalDevice gpu) {
        boolean simdgroup = gpu.supportsFamily(APPLE7);
        boolean bfloat = false;
        if (gpu.supportsFamily(APPLE6) || gpu.supportsFamily(METAL3)) {
            try {
                gpu.pipeline(BFLOAT_PROBE);
                bfloat = true;
            } catch (JBurnException e) {
                bfloat = false; // the compiler predates MSL 3.1: BF16 buffers stay ushort (the same bits)
            }
        }
        return new MetalFeatures(simdgroup, bfloat);
    }

    /** A kernel only a compiler with MSL 3.1's {@code bfloat} accepts. */
    static final KernelSource BFLOAT_PROBE = new KernelSource("jb_probe_bfloat", """
            #include <metal_stdlib>
            using namespace metal;
            kernel void jb_probe_bfloat(device bfloat* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
              out[i] = as_type<bfloat>(ushort(0x3f80));
            }
            """, List.of(), DType.BF16);

    /** What the shared emitter may use here: no {@code double}, 64-bit integers, 8/16-bit storage, and {@code bfloat} when the probe found it. */
    DeviceFeatures kernels() { return new DeviceFeatures(false, true, true, true, bfloat); }
}
