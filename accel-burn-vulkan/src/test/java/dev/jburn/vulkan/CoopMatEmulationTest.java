package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CoopMatGemmShader} on a device without cooperative matrices (lavapipe): the shader with its
 * matrix operations ({@code MAT_A}, {@code LOAD_A}, {@code MUL_ADD}, {@code STORE_C}, ...) defined by
 * plain code ({@link #emulatedMatrices}). Everything else is the kernel the
 * GPU runs: the register prefetch, the staging into shared memory with its bounds checks, the
 * offsets of each subgroup's matrices, the scratch path out, the f16 and bf16 rounding, the batch
 * offsets and the grid. What it cannot check is the driver's coopmat semantics (the offsets and
 * strides in {@code uvec4}s follow NVIDIA's vk_cooperative_matrix_perf sample).
 */
class CoopMatEmulationTest {
    private static VulkanBackend b;
    /**
     * 16×16×16 matrices in smaller tilings than the GPU's (4×4 per subgroup, K steps of 32): the same source
     * with fewer unrolled copies. At the GPU's tiling lavapipe did not finish within five minutes (llvmpipe
     * compiles at the first dispatch); these finish in seconds and still cover partial tiles, several K steps,
     * the loops over a subgroup's matrices and over a step's matrix K slices.
     */
    private static final CoopMatGemmShader.Tiling ONE_PER_SUBGROUP = new CoopMatGemmShader.Tiling(16, 16, 16, 1, 1, 16);
    private static final CoopMatGemmShader.Tiling TWO_BY_TWO = new CoopMatGemmShader.Tiling(16, 16, 16, 2, 2, 32);

    @BeforeAll
    static void requireDevice() {
        b = (VulkanBackend) TestDevice.engine().backend();
    }

    /**
     * Matrices as a 32-wide "subgroup" of invocations holds them: an accumulator spread over the lanes
     * (lane l holds elements l, l + 32, ...), A and B as their offsets in the shared tiles, read there by
     * the multiply (the tiles do not change between a step's loads and its multiplies).
     */
    static String emulatedMatrices(DType t) {
        String value = t == DType.BF16 ? "uintBitsToFloat(h << 16)" : "unpackHalf2x16(h).x";
        return """
                const uint PER_LANE = LM * LN / SUBGROUP_SIZE;
                struct MatC { float v[PER_LANE]; };
                #define MAT_A uint
                #define MAT_B uint
                #define MAT_C MatC
                MatC zeroC() { MatC c; for (uint i = 0u; i < PER_LANE; i++) c.v[i] = 0.0; return c; }
                #define ZERO_C zeroC()
                // Column c of a row starting at a uvec4: eight 16-bit values per uvec4, the first in the low half.
                float element(uvec4 q, uint c) {
                    uint w = q[(c %% 8u) / 2u];
                    uint h = (c %% 2u) == 0u ? (w & 0xFFFFu) : (w >> 16);
                    return %s;
                }
                MatC mulAdd(uint a, uint b, MatC c) {
                    for (uint i = 0u; i < PER_LANE; i++) {
                        uint e = gl_LocalInvocationID.x %% SUBGROUP_SIZE + i * SUBGROUP_SIZE, r = e / LN, n = e %% LN;
                        float s = c.v[i];
                        for (uint k = 0u; k < LK; k++) s += element(As[a + r * ROW_A + k / 8u], k) * element(Bs[b + k * ROW_B + n / 8u], n);
                        c.v[i] = s;
                    }
                    return c;
                }
                void storeC(MatC m, uint at) {
                    for (uint i = 0u; i < PER_LANE; i++) Cs[at + gl_LocalInvocationID.x %% SUBGROUP_SIZE + i * SUBGROUP_SIZE] = m.v[i];
                }
                #define LOAD_A(m, at) m = at
                #define LOAD_B(m, at) m = at
                #define MUL_ADD(a, b, c) mulAdd(a, b, c)
                #define STORE_C(m, at) storeC(m, at)
                #define SUBGROUP_ID (gl_LocalInvocationID.x / SUBGROUP_SIZE)
                #define LANE (gl_LocalInvocationID.x %% SUBGROUP_SIZE)
                #define LANES SUBGROUP_SIZE
                #define SUBGROUP_SYNC() barrier()
                """.formatted(value);
    }

    @Test
    void stagingEdgesAndRoundingMatchTheCpu() {
        int[][] shapes = {{1, 1, 1}, {17, 33, 65}, {40, 40, 72}, {16, 64, 8}};
        for (DType t : new DType[] {DType.F16, DType.BF16}) {
            for (int[] s : shapes) check(t, ONE_PER_SUBGROUP, 1, s[0], s[1], s[2]);
            check(t, ONE_PER_SUBGROUP, 3, 33, 40, 24);
        }
    }

    @Test
    void severalMatricesPerSubgroupAndPerKStep() {
        // One load kind per dtype: each variant costs lavapipe about 25 s to compile.
        check(DType.F16, TWO_BY_TWO, 1, 70, 72, 136);
        check(DType.BF16, TWO_BY_TWO, 2, 64, 33, 65);
    }

    /** {@code batch} products {@code [m,k]·[k,n]} through the emulated kernel, against the cpu's f32 dot rounded to {@code t}. */
    private static void check(DType t, CoopMatGemmShader.Tiling g, int batch, int m, int k, int n) {
        boolean wide = CoopMatGemmShader.wideLoads(k, n);
        String src = CoopMatGemmShader.source(t, g, 32, wide, "", emulatedMatrices(t));
        var gemm = new DotKernels.Gemm("gemm-coopmat-emulated-" + t.shortName() + (wide ? "-wide" : ""),
                List.of("gemm-coopmat-emulated", t, g, wide), () -> src, g.bm(), g.bn());
        Engine cpu = Engine.select("cpu");
        try (Tensor a = GemmCheck.random(t, batch * m, k, 21); Tensor c = GemmCheck.random(t, batch * k, n, 22);
             Tensor a3 = a.reshape(batch, m, k); Tensor c3 = c.reshape(batch, k, n);
             Tensor a32 = a3.asType(DType.F32); Tensor c32 = c3.asType(DType.F32);
             Tensor want32 = a32.dot(new int[] {2}, new int[] {0}, c32, new int[] {1}, new int[] {0});
             Tensor want = want32.asType(t); Arena arena = Arena.ofConfined()) {
            DeviceBuffer da = upload(a, arena), dc = upload(c, arena);
            DeviceBuffer out = b.dots.run(gemm, da, dc, batch, m, n, k, 2);
            MemorySegment host = arena.allocate(2L * batch * m * n);
            b.download(out, 0, host);
            out.release();
            da.release();
            dc.release();
            short[] got = host.toArray(ValueLayout.JAVA_SHORT);
            short[] exact = bits(want);
            float[] ref = want32.toFloatArray();
            for (int i = 0; i < got.length; i++) {
                // The products are exact in f32 and the sums differ only in order: the rounded results agree
                // to one unit in the last place of the 16-bit type (the f32 sums may straddle a rounding boundary).
                int ulps = Math.abs(got[i] - exact[i]);
                if (ulps > 1) fail(t + " " + batch + "x" + m + "x" + k + "x" + n + (wide ? " wide" : "") + " element " + i
                        + ": bits 0x" + Integer.toHexString(got[i] & 0xFFFF) + ", want 0x" + Integer.toHexString(exact[i] & 0xFFFF) + " (" + ref[i] + ")");
            }
        }
    }

    private static DeviceBuffer upload(Tensor t, Arena arena) {
        return (DeviceBuffer) b.upload(MemorySegment.ofArray(bits(t)));
    }

    /** The raw 16-bit values of a f16/bf16 cpu tensor, through a bitcast to u16. */
    private static short[] bits(Tensor t) {
        try (Tensor u = t.bitcast(DType.U16)) {
            int[] v = u.toIntArray();
            short[] s = new short[v.length];
            for (int i = 0; i < v.length; i++) s[i] = (short) v[i];
            return s;
        }
    }
}
