package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.KernelSource;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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

    /** Fills what the kernel may not write: the element past its count. */
    static final byte SENTINEL = (byte) 0xA5;

    /**
     * A case's inputs.
     *
     * @param segments the host memory handed to the kernel, per input
     * @param operands the same values on the cpu engine, for the oracle
     */
    record Inputs(List<MemorySegment> segments, List<Operand> operands) {}

    /** Generated inputs (edge values, or tied ones; the pinned input holds its value), also uploaded to {@code cpu}. */
    Inputs inputs(Backend cpu, Arena arena, Random rnd) {
        List<MemorySegment> segments = new ArrayList<>();
        List<Operand> operands = new ArrayList<>();
        for (int k = 0; k < inShapes.size(); k++) {
            DType t = inType(k);
            Shape s = inShapes.get(k);
            MemorySegment m;
            if (k == pinned) {
                m = arena.allocate(t.byteSize(), 16);
                HostElements.setLong(m, t, 0, pinValue);
            } else {
                m = tied ? MslValues.tied(arena, t, s.size(), rnd) : MslValues.edges(arena, t, s.size(), rnd);
            }
            segments.add(m);
            operands.add(new Operand(cpu.upload(m), t, s));
        }
        return new Inputs(segments, operands);
    }

    /** The output buffer: {@code outCount + 1} elements, all {@link #SENTINEL} bytes. */
    MemorySegment output(Arena arena) {
        return arena.allocate((outCount + 1) * source.outType().byteSize(), 16).fill(SENTINEL);
    }

    /** How {@code out} differs from the cpu engine's answer on {@code in}, or null; releases the operands. */
    String verify(Backend cpu, Inputs in, MemorySegment out, Arena arena) {
        DType ot = source.outType();
        Buffer expected = oracle.apply(cpu, in.operands());
        try {
            MemorySegment exp = arena.allocate(expected.byteSize(), 16);
            cpu.download(expected, 0, exp);
            String bad = MslValues.firstDifference(ot, out, exp, outCount, approx);
            for (long b = outCount * ot.byteSize(); bad == null && b < out.byteSize(); b++) {
                if (out.get(ValueLayout.JAVA_BYTE, b) != SENTINEL) bad = "wrote past its " + outCount + " elements";
            }
            return bad;
        } finally {
            expected.release();
            for (Operand o : in.operands()) o.buffer().release();
        }
    }
}
