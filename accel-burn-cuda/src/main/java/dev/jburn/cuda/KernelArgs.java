package dev.jburn.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The argument block of one {@code cuLaunchKernel}: each argument's bytes in a cell, and the array
 * of pointers to the cells the driver reads. Lives in the launch's confined arena.
 */
final class KernelArgs {
    static final int MAX = 32;

    private final Arena arena;
    private final MemorySegment pointers;
    private int count;

    KernelArgs(Arena arena) {
        this.arena = arena;
        this.pointers = arena.allocate(ADDRESS, MAX);
    }

    private KernelArgs add(MemorySegment cell) {
        if (count == MAX) throw new IllegalStateException("more than " + MAX + " kernel arguments");
        pointers.setAtIndex(ADDRESS, count++, cell);
        return this;
    }

    /** A device pointer ({@code T*}). */
    KernelArgs pointer(long devicePointer) { return add(arena.allocateFrom(JAVA_LONG, devicePointer)); }

    KernelArgs i32(int v) { return add(arena.allocateFrom(JAVA_INT, v)); }

    KernelArgs i64(long v) { return add(arena.allocateFrom(JAVA_LONG, v)); }

    KernelArgs f32(float v) { return add(arena.allocateFrom(JAVA_FLOAT, v)); }

    KernelArgs f64(double v) { return add(arena.allocateFrom(JAVA_DOUBLE, v)); }

    /** A struct passed by value, given as its bytes ({@code long long v[8]}, say). */
    KernelArgs longs(long[] values) { return add(arena.allocateFrom(JAVA_LONG, values)); }

    /** A struct passed by value, given as its {@code int}s ({@code JbDivs}, {@code int v[8]}). */
    KernelArgs ints(int[] values) { return add(arena.allocateFrom(JAVA_INT, values)); }

    /** The pointer array for {@code cuLaunchKernel}. */
    MemorySegment segment() { return pointers; }
}
