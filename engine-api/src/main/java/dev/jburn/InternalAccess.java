package dev.jburn;

import dev.jburn.internal.JBurnInternals;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

/** The implementation of {@link JBurnInternals.Access}, installed by {@link Tensor}'s static initializer. */
final class InternalAccess implements JBurnInternals.Access {
    @Override public Tensor wrap(Engine engine, Buffer buffer, DType dtype, Shape shape) {
        return Tensor.wrap(engine, buffer, dtype, shape);
    }

    @Override public Tensor wrapSame(Engine engine, Buffer buffer, Tensor same) {
        return Tensor.wrap(engine, buffer, same.dtype(), same.shape()).rememberFrom(same);
    }

    @Override public Operand operand(Tensor t) { return t.operand(); }

    @Override public Engine tracingEngine(String name, Backend backend) { return Engine.tracing(name, backend); }

    @Override public boolean isTracing(Engine engine) { return engine.isTracing(); }

    @Override public Engine swapThreadDefault(Engine engine) { return Engine.swapThreadDefault(engine); }
}
