package dev.jburn.kernels;

import dev.jburn.Shape;
import dev.jburn.spi.Operand;

import java.util.ArrayList;
import java.util.List;

/**
 * How an eager element-wise kernel over a flattened output reads its operands, so that its source does not depend on
 * the batch: an operand of the output's size is read at {@code i}, a one-element operand at 0, and an operand that
 * covers only the output's trailing {@code inner} elements (a bias {@code [C]} over channels-last {@code [N, H, W, C]})
 * at {@code i mod inner}, over an output viewed as {@code [n / inner, inner]}. Without it such a bias was first
 * broadcast to the activation's size: a copy of the whole tensor before every bias add (on an H100, the conv bias add
 * of the small CNN at batch 1024 took 190 µs where reading and writing the activation once takes ~55).
 *
 * <pre>{@code
 * FlatLayout l = FlatLayout.of(List.of(Shape.of(128, 26, 26, 32), Shape.of(32)), Shape.of(128, 26, 26, 32));
 * l.out();   // [86528, 32]
 * l.reads(); // [FULL, TRAILING]
 * }</pre>
 *
 * @param n     the output's element count
 * @param inner the trailing elements a {@link Read#TRAILING} operand covers, or 0 when there is none
 * @param reads how each operand is read
 */
public record FlatLayout(long n, long inner, List<Read> reads) {
    /** How one operand is read. */
    public enum Read { FULL, ONE, TRAILING }

    public FlatLayout {
        reads = List.copyOf(reads);
    }

    /**
     * The layout of operands of shapes {@code operands} broadcast to {@code out}, or null when one of them is neither
     * full-size, one element nor a trailing part (the engine materializes it first), or when the output is empty.
     */
    public static FlatLayout of(List<Shape> operands, Shape out) {
        long n = out.size(), inner = 0;
        if (n == 0) return null;
        List<Read> reads = new ArrayList<>(operands.size());
        for (Shape x : operands) {
            if (x.size() == n) {
                reads.add(Read.FULL);
            } else if (x.size() == 1) {
                reads.add(Read.ONE);
            } else {
                long s = trailingSize(x, out);
                if (s == 0 || (inner != 0 && s != inner)) return null;
                inner = s;
                reads.add(Read.TRAILING);
            }
        }
        return new FlatLayout(n, inner, reads);
    }

    /** {@link #of} for the shapes of {@code operands}. */
    public static FlatLayout ofOperands(List<Operand> operands, Shape out) {
        List<Shape> shapes = new ArrayList<>(operands.size());
        for (Operand x : operands) shapes.add(x.shape());
        return of(shapes, out);
    }

    /** The kernel's output shape: {@code [n]}, or {@code [n / inner, inner]} with a trailing operand. */
    public Shape out() { return inner == 0 ? Shape.of(n) : Shape.of(n / inner, inner); }

    /** Operand {@code k}'s shape in the kernel, a one-element operand taking {@code one} ({@code []} or {@code [1]}). */
    public Shape operand(int k, Shape one) {
        return switch (reads.get(k)) {
            case FULL -> out();
            case ONE -> one;
            case TRAILING -> Shape.of(inner);
        };
    }

    /** What the kernel's source depends on (besides op and types): how each operand is read, and {@code inner}. */
    public String tag() {
        StringBuilder t = new StringBuilder();
        for (Read r : reads) t.append(r == Read.FULL ? 'f' : r == Read.ONE ? 's' : 't');
        if (inner != 0) t.append(':').append(inner);
        return t.toString();
    }

    /** The element count of {@code x} when its dims (leading 1s dropped) are {@code out}'s last dims, else 0. */
    private static long trailingSize(Shape x, Shape out) {
        int lead = 0;
        while (lead < x.rank() && x.dim(lead) == 1) lead++;
        int k = x.rank() - lead;
        if (k == 0 || k > out.rank()) return 0;
        for (int j = 0; j < k; j++) if (x.dim(lead + j) != out.dim(out.rank() - k + j)) return 0;
        return x.size();
    }
}
