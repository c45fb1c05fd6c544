package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The F32 max/min window scatter (max-pool backward) for disjoint windows into zeros, a vector of
 * channels at a time: windows that leave a run of {@code inner} trailing (channel) elements
 * alone share one list of window offsets, so lane {@code c} of a vector picks among
 * {@code x[offs[j] + c]} with the scalar rule (the last one among ties, the last NaN over any
 * number) and every window element gets the source value or {@code +0} ({@code 0 + v}, as the
 * exact sum rounds). One pass writes each covered element once; uncovered ones stay zero.
 */
final class ChannelScatterF32 {
    private ChannelScatterF32() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final java.nio.ByteOrder ORDER = java.nio.ByteOrder.nativeOrder();

    /**
     * Window offsets {@code offs[0..cnt)} (window order) of one position, channels {@code [0, inner)}:
     * {@code dst[offs[j] + c] = sel(c) == j ? 0 + src[w0 + c] : 0}.
     */
    static void position(MemorySegment x, MemorySegment src, MemorySegment dst, long[] offs, int cnt, long w0, long inner, boolean max) {
        long c = 0;
        FloatVector zero = FloatVector.zero(S);
        for (; c + L <= inner; c += L) {
            FloatVector bv = FloatVector.fromMemorySegment(S, x, (offs[0] + c) * Float.BYTES, ORDER);
            FloatVector idx = zero;
            for (int j = 1; j < cnt; j++) {
                FloatVector v = FloatVector.fromMemorySegment(S, x, (offs[j] + c) * Float.BYTES, ORDER);
                VectorMask<Float> take = v.test(VectorOperators.IS_NAN)
                        .or(bv.test(VectorOperators.IS_NAN).not().and(v.compare(max ? VectorOperators.GE : VectorOperators.LE, bv)));
                bv = bv.blend(v, take);
                idx = idx.blend((float) j, take);
            }
            FloatVector s = FloatVector.fromMemorySegment(S, src, (w0 + c) * Float.BYTES, ORDER).add(0f);
            for (int j = 0; j < cnt; j++) {
                zero.blend(s, idx.compare(VectorOperators.EQ, (float) j)).intoMemorySegment(dst, (offs[j] + c) * Float.BYTES, ORDER);
            }
        }
        for (; c < inner; c++) dst.setAtIndex(FL, WindowKernels.selectF32(x, offs, cnt, c, max), 0f + src.getAtIndex(FL, w0 + c));
    }
}
