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
 * exact sum rounds); elements no window covers stay zero. A plane (image) at a time through heap
 * copies: vector accesses to native memory pay a session check each.
 */
final class ChannelScatterF32 {
    private ChannelScatterF32() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /**
     * Planes {@code [lo, hi)} of the scatter: input planes of {@code inPlane} elements, {@code perPlane}
     * window positions each ({@code posDims}), {@code inner} channels per position.
     */
    static void planes(WindowGeometry g, int[] posDims, long lo, long hi, long perPlane, int inner, int inPlane,
                       MemorySegment x, MemorySegment src, MemorySegment dst, boolean max, boolean gate) {
        int srcPlane = (int) (perPlane * inner);
        float[] xp = new float[inPlane], sp = new float[srcPlane], dp = new float[inPlane];
        int[] coord = new int[g.rank];
        int[] k = new int[g.rank];
        long[] offs = new long[(int) g.windowSize];
        // without padding, the first plane's window origins and relative offsets serve every plane (no walk per window)
        long[] origins = g.origins(posDims, (int) perPlane), rel = g.relative();
        // Disjoint windows that cover the plane, over whole vectors of channels: position() writes every element (the
        // selected one or +0), so the plane needs no zeros first (2x2 pooling of an even-sized image).
        boolean covered = origins != null && inner % L == 0 && perPlane * rel.length * inner == inPlane;
        WindowGeometry.seek(coord, posDims, lo * perPlane);
        for (long p = lo; p < hi; p++) {
            long base = p * inPlane;
            MemorySegment.copy(x, FL, base * Float.BYTES, xp, 0, inPlane);
            MemorySegment.copy(src, FL, p * srcPlane * Float.BYTES, sp, 0, srcPlane);
            if (!covered) java.util.Arrays.fill(dp, 0f);
            for (int pos = 0; pos < perPlane; pos++) {
                int cnt;
                if (origins != null) {
                    cnt = rel.length;
                    for (int j = 0; j < cnt; j++) offs[j] = origins[pos] + rel[j];
                } else {
                    cnt = g.offsets(coord, k, offs);
                    for (int j = 0; j < cnt; j++) offs[j] -= base;
                    WindowGeometry.next(coord, posDims);
                }
                if (cnt > 0) position(xp, sp, dp, offs, cnt, pos * inner, inner, max, gate);
            }
            MemorySegment.copy(dp, 0, dst, FL, base * Float.BYTES, inPlane);
        }
    }

    /**
     * One position: window offsets {@code offs[0..cnt)}, channels {@code [0, inner)}: {@code dst[offs[j] + c] = sel(c) == j ? 0 + src[w0 + c] : 0};
     * with {@code gate}, the selected element gets {@code +0} unless its value is {@code > 0} (a ReLU's gradient read from
     * the pooled ReLU output: {@link ReluGatedScatters}).
     */
    private static void position(float[] x, float[] src, float[] dst, long[] offs, int cnt, int w0, int inner, boolean max, boolean gate) {
        int c = 0;
        FloatVector zero = FloatVector.zero(S);
        for (; c + L <= inner; c += L) {
            FloatVector bv = FloatVector.fromArray(S, x, (int) offs[0] + c);
            FloatVector idx = zero;
            for (int j = 1; j < cnt; j++) {
                FloatVector v = FloatVector.fromArray(S, x, (int) offs[j] + c);
                VectorMask<Float> take = v.test(VectorOperators.IS_NAN)
                        .or(bv.test(VectorOperators.IS_NAN).not().and(v.compare(max ? VectorOperators.GE : VectorOperators.LE, bv)));
                bv = bv.blend(v, take);
                idx = idx.blend((float) j, take);
            }
            FloatVector s = FloatVector.fromArray(S, src, w0 + c).add(0f);
            if (gate) s = s.blend(zero, bv.compare(VectorOperators.GT, zero).not()); // NaN: not > 0
            for (int j = 0; j < cnt; j++) zero.blend(s, idx.compare(VectorOperators.EQ, (float) j)).intoArray(dst, (int) offs[j] + c);
        }
        for (; c < inner; c++) {
            int best = (int) offs[0] + c;
            float bv = x[best];
            for (int j = 1; j < cnt; j++) {
                int off = (int) offs[j] + c;
                float v = x[off];
                if (v != v || (bv == bv && (max ? v >= bv : v <= bv))) {
                    best = off;
                    bv = v;
                }
            }
            dst[best] = gate && !(bv > 0f) ? 0f : 0f + src[w0 + c];
        }
    }
}
