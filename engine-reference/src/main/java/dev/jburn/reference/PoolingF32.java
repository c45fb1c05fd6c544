package dev.jburn.reference;

import dev.jburn.JBurnException;
import dev.jburn.op.ReduceOp;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * F32 pooling over the last two axes ({@link PoolPlan}), one output row at a time: first the
 * window rows are combined into a padded row buffer, one input row after the other (adjacent
 * rows, so one sequential read), then each output vector combines the window columns of that
 * buffer: contiguous loads for stride 1, an even-lane shuffle of two loads for stride 2, gathers
 * beyond. Padding holds the identity. (PoolingF64 is the same code for doubles; keep the two in step.)
 */
final class PoolingF32 {
    private PoolingF32() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /** Lane indexes 0, 2, 4, ...: the even lanes of two concatenated vectors (stride-2 windows without a gather). */
    private static final FloatVector EVEN = FloatVector.fromArray(S, evenIndexes(), 0);
    private static final int BYTES = Float.BYTES;

    static void run(ReduceOp op, MemorySegment src, MemorySegment dst, PoolPlan p, Parallel parallel) {
        int code = opCode(op);
        float id = (float) ReductionKernels.floatIdentity(op);
        long rows = p.planes() * p.oh();
        parallel.forRange(rows, (long) p.kh() * (p.w() + p.ow() * p.kw()), (lo, hi) -> {
            int lanes = S.length();
            float[] row = new float[p.rowBufferLength(lanes)];
            Arrays.fill(row, id);
            int[] gather = new int[lanes];
            for (int i = 0; i < lanes; i++) gather[i] = i * p.sw();
            FloatVector identity = FloatVector.broadcast(S, id);
            for (long r = lo; r < hi; r++) {
                long plane = r / p.oh();
                int oy = (int) (r % p.oh());
                vertical(code, src, plane * p.h() * p.w(), oy, p, row, identity);
                horizontal(code, row, dst, r * p.ow(), p, gather, identity);
            }
        });
    }

    /** {@code row[padLeft + x]} = the window rows of output row {@code oy} combined at column {@code x}. */
    private static void vertical(int code, MemorySegment src, long planeBase, int oy, PoolPlan p, float[] row, FloatVector identity) {
        int w = p.w(), lanes = S.length(), upper = S.loopBound(w), left = p.padLeft();
        int[] rows = p.rowTable();
        int base = oy * p.kh();
        boolean first = true;
        // One input row at a time: consecutive window rows are adjacent in memory, so this is one sequential read.
        for (int k = 0; k < p.kh(); k++) {
            int iy = rows[base + k];
            if (iy < 0) continue;
            long rowByte = (planeBase + (long) iy * w) * BYTES;
            int x = 0;
            for (; x < upper; x += lanes) {
                FloatVector acc = first ? identity : FloatVector.fromArray(S, row, left + x);
                combine(code, acc, FloatVector.fromMemorySegment(S, src, rowByte + (long) x * BYTES, ORDER)).intoArray(row, left + x);
            }
            if (x < w) {
                VectorMask<Float> m = S.indexInRange(x, w);
                FloatVector acc = first ? identity : FloatVector.fromArray(S, row, left + x, m);
                combine(code, acc, FloatVector.fromMemorySegment(S, src, rowByte + (long) x * BYTES, ORDER, m)).intoArray(row, left + x, m);
            }
            first = false;
        }
        if (first) {
            // every window row is padding
            int x = 0;
            for (; x < upper; x += lanes) identity.intoArray(row, left + x);
            if (x < w) identity.intoArray(row, left + x, S.indexInRange(x, w));
        }
    }

    /** Output row {@code outBase..}: each element combines the window columns of the row buffer. */
    private static void horizontal(int code, float[] row, MemorySegment dst, long outBase, PoolPlan p, int[] gather, FloatVector identity) {
        int ow = p.ow(), lanes = S.length(), sw = p.sw();
        for (int ox = 0; ox < ow; ox += lanes) {
            FloatVector v = identity;
            for (int k = 0; k < p.kw(); k++) {
                int at = ox * sw + k * p.dw();
                FloatVector x;
                if (sw == 1) x = FloatVector.fromArray(S, row, at);
                else if (sw == 2) x = EVEN.selectFrom(FloatVector.fromArray(S, row, at), FloatVector.fromArray(S, row, at + lanes));
                else x = FloatVector.fromArray(S, row, at, gather, 0);
                v = combine(code, v, x);
            }
            long off = (outBase + ox) * BYTES;
            if (ox + lanes <= ow) v.intoMemorySegment(dst, off, ORDER);
            else v.intoMemorySegment(dst, off, ORDER, S.indexInRange(ox, ow));
        }
    }

    private static float[] evenIndexes() {
        float[] idx = new float[S.length()];
        for (int i = 0; i < idx.length; i++) idx[i] = 2 * i;
        return idx;
    }

    private static final int SUM = 0, PRODUCT = 1, MAX = 2, MIN = 3;

    private static int opCode(ReduceOp op) {
        return switch (op) {
            case SUM -> SUM;
            case PRODUCT -> PRODUCT;
            case REDUCE_MAX -> MAX;
            case REDUCE_MIN -> MIN;
            case ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new JBurnException(op.opName(), "is not a window reduction");
        };
    }

    /** A predictable branch per call keeps every lane operation intrinsic (a variable operator would not be). */
    private static FloatVector combine(int code, FloatVector a, FloatVector b) {
        return switch (code) {
            case SUM -> a.add(b);
            case PRODUCT -> a.mul(b);
            case MAX -> a.max(b);
            default -> a.min(b);
        };
    }
}
