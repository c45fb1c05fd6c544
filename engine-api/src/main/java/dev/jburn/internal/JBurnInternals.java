package dev.jburn.internal;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

/**
 * Package-private {@code Tensor} and {@code Engine} internals for the compiler packages of this
 * module ("shared secrets"): {@code dev.jburn} installs the implementation from {@code Tensor}'s
 * static initializer. This package is not exported, so users and other modules never see it.
 */
public final class JBurnInternals {
    private JBurnInternals() {}

    /** What {@code dev.jburn} lends to {@code dev.jburn.graph}. */
    public interface Access {
        /** {@code Tensor.wrap}: a tensor taking over {@code buffer}'s reference. */
        Tensor wrap(Engine engine, Buffer buffer, DType dtype, Shape shape);

        /** {@link #wrap} for a result that is the input {@code same} passed through: it keeps {@code same}'s remembered host bytes. */
        Tensor wrapSame(Engine engine, Buffer buffer, Tensor same);

        /** {@code Tensor.operand()}: the backend view of a live tensor. */
        Operand operand(Tensor t);

        /** An engine around {@code backend} that traces instead of computing (no provider, not cached). */
        Engine tracingEngine(String name, Backend backend);

        /** Whether {@code engine} was made by {@link #tracingEngine}. */
        boolean isTracing(Engine engine);

        /**
         * Makes {@code engine} what {@code Engine.defaultEngine()} returns on this thread ({@code null}
         * restores the process default) and returns the previous override (or {@code null}).
         */
        Engine swapThreadDefault(Engine engine);
    }

    private static volatile Access access;

    /** Called once by {@code dev.jburn.Tensor}. */
    public static void install(Access a) {
        if (access != null) throw new IllegalStateException("JBurn internals are installed already");
        access = a;
    }

    /** The installed accessor; loads {@code Tensor} first when needed. */
    public static Access access() {
        Access a = access;
        if (a != null) return a;
        try {
            Class.forName(Tensor.class.getName(), true, Tensor.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return access;
    }
}
