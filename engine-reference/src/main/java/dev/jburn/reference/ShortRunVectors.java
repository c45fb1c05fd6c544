package dev.jburn.reference;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * The vector half of {@link Elements#copyShortRun}: a short run of 4-byte elements as vector moves, a masked one
 * for the tail. Its own class, loaded only when the Vector API is present ({@link VectorApi}).
 */
final class ShortRunVectors {
    private ShortRunVectors() {}

    private static final VectorSpecies<Integer> IS = IntVector.SPECIES_PREFERRED;
    private static final int IL = IS.length();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    static void copy4(MemorySegment src, long from, MemorySegment dst, long to, int count) {
        long s = from * 4, d = to * 4;
        int i = 0;
        for (; i <= count - IL; i += IL) {
            IntVector.fromMemorySegment(IS, src, s + i * 4L, ORDER).intoMemorySegment(dst, d + i * 4L, ORDER);
        }
        if (i < count) {
            VectorMask<Integer> m = IS.indexInRange(i, count);
            IntVector.fromMemorySegment(IS, src, s + i * 4L, ORDER, m).intoMemorySegment(dst, d + i * 4L, ORDER, m);
        }
    }
}
