package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.Operand;

import java.util.ArrayList;
import java.util.List;

/**
 * The buffers one op needs only while it runs on the GPU: a hand-written kernel's parameter words,
 * F16/BF16 operands widened to F32, operands permuted for a kernel, scratch space, and results on
 * their way to another dtype. All are released together when the op ends (try-with-resources),
 * whether it returned a result, fell back ({@code null}) or threw; what the op returns is never held.
 * Every method passes {@code null} ("cannot run here") through, so a chain of steps needs one check.
 *
 * <pre>{@code
 * try (MetalScratch s = kernels.scratch("conv")) {
 *     Operand x = s.widened(input);                       // released at the end
 *     if (x == null) return null;                         // the cpu engine runs it, counted
 *     MetalBuffer y = kernels.produce("conv", pipeline, List.of(x), words, 4 * n, n, false);
 *     return s.converted(y, DType.F32, Shape.of(n), out); // y released if it was rounded to out
 * }
 * }</pre>
 */
final class MetalScratch implements AutoCloseable {
    private final MetalBackend backend;
    private final MetalKernels kernels;
    private final String op;
    private final List<MetalBuffer> held = new ArrayList<>();

    MetalScratch(MetalBackend backend, MetalKernels kernels, String op) {
        this.backend = backend;
        this.kernels = kernels;
        this.op = op;
    }

    /** {@code b}, released when this closes. */
    MetalBuffer hold(MetalBuffer b) {
        if (b != null) held.add(b);
        return b;
    }

    /** {@code bytes} of uninitialized space for a kernel to write and another to read. */
    MetalDevice.SharedBuffer space(long bytes) { return hold(backend.uninitialized(op, bytes)).shared(); }

    /** A hand-written kernel's shape parameters, bound after its inputs. */
    MetalDevice.SharedBuffer parameters(int[] words) { return hold(kernels.parameters(op, words)).shared(); }

    /**
     * {@code x} as F32: itself, or its exact cast (the hand-written kernels compute F16 and BF16 this way, as
     * the cpu engine does, and round once at the end); null when the cast cannot run here.
     */
    Operand widened(Operand x) {
        if (x == null || x.dtype() == DType.F32) return x;
        MetalBuffer wide = hold(kernels.cast(x, DType.F32));
        return wide == null ? null : new Operand(wide, DType.F32, x.shape());
    }

    /** {@code x} with its axes permuted (output axis {@code i} is axis {@code perm[i]}); itself when {@code perm} is null. */
    Operand permuted(Operand x, int[] perm) {
        if (x == null || perm == null) return x;
        MetalBuffer moved = hold(backend.movement().transpose(x, perm));
        if (moved == null) return null;
        int[] dims = new int[perm.length];
        for (int i = 0; i < perm.length; i++) dims[i] = x.shape().dim(perm[i]);
        return new Operand(moved, x.dtype(), Shape.of(dims));
    }

    /**
     * {@code b} (a {@code from} result of {@code shape}) as {@code to}: itself when the types agree, else the
     * shared cast of it (rounding once), {@code b} then released when this closes; null when the cast cannot run here.
     */
    MetalBuffer converted(MetalBuffer b, DType from, Shape shape, DType to) {
        if (b == null || from == to) return b;
        return kernels.cast(new Operand(hold(b), from, shape), to);
    }

    @Override
    public void close() {
        for (MetalBuffer b : held) b.release();
        held.clear();
    }
}
