package dev.jburn.conformance;

import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.WindowSpec;
import dev.jburn.op.WindowOp;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.reference.ReferenceProvider;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kit must catch a wrong engine and say where: a cpu engine whose F64 to S8 cast is off by one in element 0. */
class BrokenEngineTest {
    private static final Engine BROKEN = Engine.create(new BrokenCastProvider(), EngineConfig.defaults().withThreads(1));

    @Test
    void castPropertyCatchesAnOffByOneCast() {
        CastContract kit = () -> BROKEN;
        AssertionError e = assertThrows(AssertionError.class, kit::castToEveryTypeMatchesTheOracle);
        String m = e.getMessage();
        assertTrue(m.contains("Seed was"), m);
        assertTrue(m.contains("asType s8"), m);
        assertTrue(m.contains("expected"), m);
    }

    @Test
    void nxRulesPropertyCatchesItWithoutTheOracle() {
        CastContract kit = () -> BROKEN;
        AssertionError e = assertThrows(AssertionError.class, kit::castFollowsTheNxRules);
        assertTrue(e.getMessage().contains("at flat index 0"), e.getMessage());
    }

    /** Provides the reference backend with the broken cast. */
    private static final class BrokenCastProvider implements EngineProvider {
        @Override public String name() { return "broken-cast"; }
        @Override public int priority() { return -1; }
        @Override public Availability availability() { return Availability.yes("test double"); }
        @Override public Backend create(EngineConfig config) { return new BrokenCast(new ReferenceProvider().create(config.withVectorKernels(false))); }
    }

    /** Delegates everything to the reference backend, except that a float-to-S8 cast adds 1 to element 0. */
    private static final class BrokenCast extends ForwardingBackend {
        private final Backend d;

        BrokenCast(Backend d) {
            super(d);
            this.d = d;
        }

        @Override
        public Buffer cast(Operand x, DType to) {
            Buffer out = d.cast(x, to);
            if (!x.dtype().isFloat() || to != DType.S8 || x.size() == 0) return out;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment host = arena.allocate(x.size());
                d.download(out, 0, host);
                HostElements.setLong(host, to, 0, HostElements.getLong(host, to, 0) + 1);
                out.release();
                return d.upload(host);
            }
        }

        @Override public String name() { return "broken-cast"; }
    }
}
