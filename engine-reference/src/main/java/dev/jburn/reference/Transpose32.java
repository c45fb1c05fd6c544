package dev.jburn.reference;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A 2-D transposition of 4-byte elements between native segments, the inner kernel of {@link StridedCopy}'s tiles for
 * F32/I32 (an NCHW → channels-last copy, {@code [C, plane] → [plane, C]} per image, is one). Element {@code (r, c)} of
 * the block is at {@code src[srcBase + r + c·srcCol]} and goes to {@code dst[dstBase + r·dstRow + c]}: the rows are
 * contiguous in the source, the columns in the destination. Square tiles of one vector's lanes move as vectors: each
 * source column's piece is loaded as one vector into an L1 scratch tile, and each destination row's piece gathered from
 * it as one vector (the element-by-element copy through {@link Elements#copy} cost ~1.2 ns an element: ~2 ms for one
 * operand of the ResNet-like conv's kernel cotangent). Bits move as ints, so NaN payloads are kept. The ragged edges go
 * element by element. Only native segments come here (heap segments through the same vector accesses would pollute the
 * type profiles of the engine's other kernels).
 */
final class Transpose32 {
    private static final VectorSpecies<Integer> S = IntVector.SPECIES_PREFERRED;
    /** Tile edge: one vector's lanes. */
    static final int L = S.length();
    /** Gather offsets of one destination row piece in a scratch tile stored column by column. */
    private static final int[] COLUMN_STARTS = new int[L];
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

    static {
        for (int c = 0; c < L; c++) COLUMN_STARTS[c] = c * L;
    }

    private Transpose32() {}

    /** Whether the vector path takes these segments: both native, vectors of at least 8 ints. */
    static boolean applies(MemorySegment src, MemorySegment dst) {
        return L >= 8 && src.isNative() && dst.isNative();
    }

    /** A scratch tile for {@link #block}, one per calling thread. */
    static int[] scratch() { return new int[L * L]; }

    /** Copies the {@code rows × cols} block (element offsets and strides, see the class comment). */
    static void block(MemorySegment src, long srcBase, long srcCol, MemorySegment dst, long dstBase, long dstRow,
                      int rows, int cols, int[] tile) {
        int fullRows = rows - rows % L, fullCols = cols - cols % L;
        for (int r0 = 0; r0 < fullRows; r0 += L) {
            for (int c0 = 0; c0 < fullCols; c0 += L) {
                tile(src, srcBase + r0 + c0 * srcCol, srcCol, dst, dstBase + r0 * dstRow + c0, dstRow, tile);
            }
        }
        if (fullCols < cols) edge(src, srcBase, srcCol, dst, dstBase, dstRow, 0, fullRows, fullCols, cols);
        if (fullRows < rows) edge(src, srcBase, srcCol, dst, dstBase, dstRow, fullRows, rows, 0, cols);
    }

    /** One full {@code L × L} tile: columns in by vector loads, rows out by gathers from the scratch tile. */
    private static void tile(MemorySegment src, long s, long srcCol, MemorySegment dst, long d, long dstRow, int[] tile) {
        for (int c = 0; c < L; c++) {
            IntVector.fromMemorySegment(S, src, (s + c * srcCol) * Integer.BYTES, ByteOrder.nativeOrder()).intoArray(tile, c * L);
        }
        for (int r = 0; r < L; r++) {
            IntVector.fromArray(S, tile, r, COLUMN_STARTS, 0).intoMemorySegment(dst, (d + r * dstRow) * Integer.BYTES, ByteOrder.nativeOrder());
        }
    }

    /** Rows {@code [r0, r1)} × columns {@code [c0, c1)} element by element. */
    private static void edge(MemorySegment src, long srcBase, long srcCol, MemorySegment dst, long dstBase, long dstRow,
                             int r0, int r1, int c0, int c1) {
        for (int r = r0; r < r1; r++) {
            for (int c = c0; c < c1; c++) dst.setAtIndex(I, dstBase + r * dstRow + c, src.getAtIndex(I, srcBase + r + c * srcCol));
        }
    }
}
