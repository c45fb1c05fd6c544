package dev.jburn.nn.layers;

import dev.jburn.Shape;

/** Shape arithmetic the layers share; open axes ({@code -1}) stay open. */
final class Layers {
    private Layers() {}

    /** {@code s} with its last axis replaced by {@code size}. */
    static Shape withLast(Shape s, int size) {
        int[] d = s.dims();
        d[d.length - 1] = size;
        return Shape.of(d);
    }

    /** The product of {@code dims[from..]}, or -1 when one of them is open. */
    static int product(int[] dims, int from) {
        long n = 1;
        for (int i = from; i < dims.length; i++) {
            if (dims[i] == Shape.OPEN) return Shape.OPEN;
            n *= dims[i];
        }
        return Math.toIntExact(n);
    }
}
