package dev.jburn.reference;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** Writes comparison masks (one bit per lane, from {@code VectorMask.toLong()}) as PRED bytes. */
final class VectorLanes {
    private VectorLanes() {}

    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** {@code SPREAD[m]} holds byte j = bit j of m, read little-endian: eight lanes in one store. */
    private static final long[] SPREAD = new long[256];

    static {
        for (int m = 0; m < 256; m++) {
            long v = 0;
            for (int j = 0; j < 8; j++) v |= (long) ((m >>> j) & 1) << (8 * j);
            SPREAD[m] = v;
        }
    }

    /** Stores lanes {@code [0, lanes)} of {@code bits} as 0/1 bytes at {@code out[o...]}. */
    static void storeMask(MemorySegment out, long o, long bits, int lanes) {
        int j = 0;
        for (; j + 8 <= lanes; j += 8) out.set(LONG_LE, o + j, SPREAD[(int) ((bits >>> j) & 0xFF)]);
        for (; j < lanes; j++) out.set(ValueLayout.JAVA_BYTE, o + j, (byte) ((bits >>> j) & 1));
    }

    /** Stores one boolean as a PRED byte. */
    static void storeBool(MemorySegment out, long o, boolean v) {
        out.set(ValueLayout.JAVA_BYTE, o, (byte) (v ? 1 : 0));
    }
}
