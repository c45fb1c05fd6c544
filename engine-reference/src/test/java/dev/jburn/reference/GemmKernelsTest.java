package dev.jburn.reference;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The F32 micro-kernels of {@link GemmKernels} against their scalar twin, bit for bit: each output element is one
 * {@link Math#fma} chain over ascending steps, which is what each vector lane computes, however the kernel's loop is
 * unrolled. Every kernel runs here whatever the machine's lane count (the GEMM picks one by it); odd and even step
 * counts (the 6-row kernels take two steps per iteration, then the odd last one), NaN, infinities, signed zeros and
 * subnormals among A, B and C. NaN is compared as NaN (which NaN an fma passes on follows C2's register order).
 */
class GemmKernelsTest {
    private static final int AS = GemmKernels.AS, L = GemmKernels.F.length(), NR = GemmKernels.F32_NR;
    private static final float[] SPECIAL = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, 0f,
            Float.MIN_VALUE, -Float.MIN_NORMAL / 3, Float.MAX_VALUE};

    private static float value(Random rnd) {
        return rnd.nextInt(16) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : (float) rnd.nextGaussian();
    }

    /** The scalar twin: {@code c + Σ_p a[ao + r·AS + p]·b[p·NR + j]} as one fma chain ({@code c} is 0 when not adding). */
    private static float twin(float[] a, int ao, float[] b, int r, int j, int kc, float c, boolean add) {
        float acc = 0;
        for (int p = 0; p < kc; p++) acc = Math.fma(a[ao + r * AS + p], b[p * NR + j], acc);
        return add ? acc + c : acc;
    }

    private static void same(float want, float got, String what) {
        if (Float.isNaN(want) && Float.isNaN(got)) return;
        if (Float.floatToRawIntBits(want) != Float.floatToRawIntBits(got)) fail(what + ": " + got + ", want " + want);
    }

    @Test
    void everyF32KernelIsItsScalarFmaChain() {
        Random rnd = new Random(16);
        for (int mr : new int[] {6, 12}) {
            for (int kc : new int[] {1, 2, 3, 8, 77, Gemm.F32_KC}) {
                int ao = 5; // panels start anywhere in the packed A block
                float[] a = new float[ao + mr * AS];
                for (int i = 0; i < a.length; i++) a[i] = value(rnd);
                float[] bv = new float[kc * NR];
                for (int i = 0; i < bv.length; i++) bv[i] = value(rnd);
                long cRow = (long) (NR + 3) * Float.BYTES, co = 2L * Float.BYTES; // C rows with a gap between them
                try (Arena arena = Arena.ofConfined()) {
                    long bo = 64;
                    MemorySegment b = arena.allocate(bo + (long) bv.length * Float.BYTES, 64);
                    MemorySegment.copy(bv, 0, b, ValueLayout.JAVA_FLOAT, bo, bv.length);
                    float[] tile = new float[mr * NR];
                    if (mr == 6) GemmKernels.float6(kc, a, ao, b, bo, tile);
                    else GemmKernels.float12(kc, a, ao, b, bo, tile);
                    for (int r = 0; r < mr; r++) {
                        for (int j = 0; j < NR; j++) same(twin(a, ao, bv, r, j, kc, 0, false), tile[r * NR + j], "float" + mr + " kc=" + kc + " (" + r + "," + j + ")");
                    }
                    for (boolean add : new boolean[] {false, true}) {
                        if (add && mr == 12) continue; // no 12-row adding kernel (see GemmKernels)
                        MemorySegment c = arena.allocate(co + mr * cRow, 64);
                        float[] before = new float[(int) (c.byteSize() / Float.BYTES)];
                        for (int i = 0; i < before.length; i++) before[i] = value(rnd);
                        MemorySegment.copy(before, 0, c, ValueLayout.JAVA_FLOAT, 0, before.length);
                        if (mr == 12) GemmKernels.float12Into(kc, a, ao, b, bo, c, co, cRow);
                        else if (add) GemmKernels.float6AddInto(kc, a, ao, b, bo, c, co, cRow);
                        else GemmKernels.float6Into(kc, a, ao, b, bo, c, co, cRow);
                        String what = (mr == 12 ? "float12Into" : add ? "float6AddInto" : "float6Into") + " kc=" + kc;
                        for (int e = 0; e < before.length; e++) {
                            long byteAt = (long) e * Float.BYTES - co;
                            int r = (int) Math.floorDiv(byteAt, cRow), j = (int) (Math.floorMod(byteAt, cRow) / Float.BYTES);
                            float got = c.getAtIndex(ValueLayout.JAVA_FLOAT, e);
                            if (byteAt < 0 || r >= mr || j >= NR) same(before[e], got, what + ": wrote outside the tile at " + e);
                            else same(twin(a, ao, bv, r, j, kc, before[e], add), got, what + " (" + r + "," + j + ")");
                        }
                    }
                }
            }
        }
        assertEquals(2 * L, NR);
    }
}
