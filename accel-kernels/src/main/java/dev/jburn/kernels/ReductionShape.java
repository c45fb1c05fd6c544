package dev.jburn.kernels;

import dev.jburn.Shape;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A reduction's input shape simplified for an eager {@code Backend.reduce}: size-1 axes dropped, neighbouring
 * axes of the same kind (kept or reduced) merged, a leading kept axis, at least one reduced axis. Kernels whose
 * sources hold the sizes are then shared by more shapes, and full and partial reductions have the same
 * structure. {@code [128, 26, 26, 32]} over {@code [0, 1, 2]} becomes {@code [1, 86528, 32]} over {@code [1]}.
 *
 * @param shape the simplified shape (same element count)
 * @param axes  its reduced axes, sorted
 */
public record ReductionShape(Shape shape, int[] axes) {
    public ReductionShape {
        axes = axes.clone();
    }

    @Override public int[] axes() { return axes.clone(); }

    /** {@code s} reduced over {@code axes}, simplified. */
    public static ReductionShape of(Shape s, int[] axes) {
        List<Long> dims = new ArrayList<>(List.of(1L));
        List<Boolean> reduced = new ArrayList<>(List.of(false));
        for (int d = 0; d < s.rank(); d++) {
            long n = s.dim(d);
            boolean r = contains(axes, d);
            if (n == 1) continue;
            if (reduced.getLast() == r) {
                dims.set(dims.size() - 1, dims.getLast() * n);
            } else {
                dims.add(n);
                reduced.add(r);
            }
        }
        if (!reduced.contains(true)) {
            dims.add(1L);
            reduced.add(true);
        }
        return new ReductionShape(Shape.of(dims.stream().mapToLong(Long::longValue).toArray()),
                IntStream.range(0, dims.size()).filter(reduced::get).toArray());
    }

    private static boolean contains(int[] axes, int d) {
        for (int a : axes) if (a == d) return true;
        return false;
    }
}
