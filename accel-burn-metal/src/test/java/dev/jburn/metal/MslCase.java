package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.KernelSource;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.util.List;
import java.util.function.BiFunction;

/**
 * One generated MSL kernel and how to run it on the CPU: a grid of {@code threads} threads in groups of
 * {@code group} ({@code 1} for element-wise kernels, whose grid covers one element more than the
 * element count they are given, so the bounds check runs), over inputs of {@code inShapes}.
 *
 * @param label     what it computes, for messages ({@code "unary exp:f32"})
 * @param source    the generated source
 * @param inShapes  each input buffer's shape
 * @param outCount  output elements the kernel writes
 * @param count     the value of the kernel's {@code n}
 * @param groups    threadgroups to run ({@code 0}: element-wise, {@code count + 1} single threads)
 * @param tied      inputs drawn from few values (sums and products, whose order then hardly matters)
 * @param approx    compare floats with a tolerance (host libm against Apple's; reordered sums)
 * @param oracle    the cpu engine's answer for the same inputs
 * @param pinned    an input holding one fixed value instead of generated ones (the row reduction's column count), or -1
 * @param pinValue  that value
 */
record MslCase(String label, KernelSource source, List<Shape> inShapes, long outCount, long count, long groups,
               boolean tied, boolean approx, BiFunction<Backend, List<Operand>, Buffer> oracle, int pinned, long pinValue) {
    MslCase(String label, KernelSource source, List<Shape> inShapes, long outCount, long count, long groups,
            boolean tied, boolean approx, BiFunction<Backend, List<Operand>, Buffer> oracle) {
        this(label, source, inShapes, outCount, count, groups, tied, approx, oracle, -1, 0);
    }

    /** The dtype of input {@code k}. */
    DType inType(int k) { return source.inputTypes().get(k); }

    /** Whether it runs as threadgroups of 256 with barriers (a reduction). */
    boolean grouped() { return groups > 0; }
}
