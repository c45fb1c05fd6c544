package dev.jburn.cuda;

import dev.jburn.Shape;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * The window geometries both of {@link HostKernelCheck}'s window checks (window max/min, window scatters) run, and
 * the layouts of the structs their 32-bit kernels take by value.
 */
final class WindowCheckCases {
    private WindowCheckCases() {}

    /** NCHW-like input pooled 2×2 on its last two axes, with high padding on the last. */
    static final Shape POOLED = Shape.of(2, 2, 6, 5);
    /** A rank-2 input for the overlapping and gapped windows. */
    static final Shape ROWS = Shape.of(7, 6);
    /** A channels-last input that 2×2 windows of stride 2 tile exactly. */
    static final Shape CHANNELS_LAST = Shape.of(2, 6, 4, 3);

    /** 2×2 pooling with padding ({@link #POOLED}). */
    static final WindowSpec POOL = new WindowSpec(new int[] {1, 1, 2, 2}, new int[] {1, 1, 2, 2}, new int[4], new int[] {0, 0, 0, 1}, new int[] {1, 1, 1, 1});
    /** Overlapping, dilated, padded windows ({@link #ROWS}). */
    static final WindowSpec OVERLAP = new WindowSpec(new int[] {3, 2}, new int[] {1, 2}, new int[] {1, 0}, new int[] {2, 1}, new int[] {2, 1});
    /** Disjoint windows with gaps between them, padding before, and a tail no window reaches ({@link #ROWS}). */
    static final WindowSpec GAPS = new WindowSpec(new int[] {2, 2}, new int[] {3, 2}, new int[] {1, 0}, new int[] {0, 1}, new int[] {1, 1});
    /** Unpadded channels-last 2×2 pooling that tiles {@link #CHANNELS_LAST}. */
    static final WindowSpec TILE = new WindowSpec(new int[] {1, 2, 2, 1}, new int[] {1, 2, 2, 1}, new int[4], new int[4], new int[] {1, 1, 1, 1});

    /** {@code JbDivs}: 8 fast divisors of 3 ints each. */
    static final StructLayout DIVS = MemoryLayout.structLayout(MemoryLayout.sequenceLayout(24, ValueLayout.JAVA_INT));
    /** {@code JbInts}: 8 ints. */
    static final StructLayout INTS = MemoryLayout.structLayout(MemoryLayout.sequenceLayout(8, ValueLayout.JAVA_INT));
}
