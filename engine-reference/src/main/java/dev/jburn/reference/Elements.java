package dev.jburn.reference;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;


/** Type-agnostic element moves by width, for movement kernels that never look at values. */
final class Elements {
    private Elements() {}

    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;

    /** Copies element {@code from} of {@code src} to element {@code to} of {@code dst}, each {@code width} bytes wide. */
    static void copy(MemorySegment src, long from, MemorySegment dst, long to, int width) {
        switch (width) {
            case 1 -> dst.set(ValueLayout.JAVA_BYTE, to, src.get(ValueLayout.JAVA_BYTE, from));
            case 2 -> dst.setAtIndex(S, to, src.getAtIndex(S, from));
            case 4 -> dst.setAtIndex(I, to, src.getAtIndex(I, from));
            case 8 -> dst.setAtIndex(L, to, src.getAtIndex(L, from));
            default -> throw new IllegalArgumentException("element width " + width);
        }
    }

    /**
     * Copies {@code count} contiguous elements, a short run (tens of elements: an im2col row
     * piece, a tile row): 4-byte elements move as vectors (a masked one for the tail), which
     * beats {@link MemorySegment#copy}'s per-call cost at these lengths; longer runs and other
     * widths use it.
     */
    static void copyShortRun(MemorySegment src, long from, MemorySegment dst, long to, int count, int width) {
        // the vector moves live in their own class, so that this one loads without the Vector API
        if (width != 4 || count > SHORT_RUN || !VectorApi.present()) {
            copyRun(src, from, dst, to, count, width);
            return;
        }
        ShortRunVectors.copy4(src, from, dst, to, count);
    }

    /** Runs up to this many elements take vector moves. */
    private static final int SHORT_RUN = 256;

    /** Copies {@code count} contiguous elements. */
    static void copyRun(MemorySegment src, long from, MemorySegment dst, long to, long count, int width) {
        MemorySegment.copy(src, from * width, dst, to * width, count * width);
    }
}
