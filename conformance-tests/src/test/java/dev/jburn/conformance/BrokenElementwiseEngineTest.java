package dev.jburn.conformance;

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

/**
 * The element-wise contracts must catch engines that are slightly wrong: an F32 {@code exp} 64
 * ulps off, an S32 {@code add} off by one, a float {@code min} that loses the sign of zero.
 * Each mutant is the reference backend with one element-wise kernel corrupted.
 */
class BrokenElementwiseEngineTest {

    /** What a mutant gets wrong. */
    enum Mutation { EXP_F32_ULPS, ADD_S32_OFF_BY_ONE, MIN_LOSES_NEGATIVE_ZERO }

    private static Engine mutant(Mutation m) {
        return Engine.create(new MutantProvider(m), EngineConfig.defaults().withThreads(1));
    }

    @Test
    void unaryOraclePropertyCatchesAnInaccurateExp() {
        Engine e = mutant(Mutation.EXP_F32_ULPS);
        UnaryContract kit = () -> e;
        AssertionError err = assertThrows(AssertionError.class, kit::unaryOpsMatchTheOracleAndTheTypeRule);
        assertTrue(err.getMessage().contains("exp of") && err.getMessage().contains("(64 ulp)"), err.getMessage());
    }

    @Test
    void integerLawCatchesAnAddOffByOneWithoutTheOracle() {
        Engine e = mutant(Mutation.ADD_S32_OFF_BY_ONE);
        ElementwiseLawContract kit = () -> e;
        AssertionError err = assertThrows(AssertionError.class, kit::integerOpsWrapLikeTwosComplement);
        assertTrue(err.getMessage().contains("add of a = s32"), err.getMessage());
        BinaryContract oracle = () -> e;
        assertThrows(AssertionError.class, oracle::binaryOpsMatchTheOracleOnPromotedBroadcastPairs);
    }

    @Test
    void binaryOraclePropertyCatchesTheSignOfZero() {
        Engine e = mutant(Mutation.MIN_LOSES_NEGATIVE_ZERO);
        BinaryContract kit = () -> e;
        AssertionError err = assertThrows(AssertionError.class, kit::binaryOpsMatchTheOracleOnPromotedBroadcastPairs);
        assertTrue(err.getMessage().contains("min of") && err.getMessage().contains("expected -0.0, got 0.0"), err.getMessage());
    }

    /** Provides the reference backend (scalar kernels) with one mutation. */
    private record MutantProvider(Mutation m) implements EngineProvider {
        @Override public String name() { return "mutant-" + m.name().toLowerCase(java.util.Locale.ROOT); }
        @Override public int priority() { return -1; }
        @Override public Availability availability() { return Availability.yes("test double"); }
        @Override public Backend create(EngineConfig config) { return new Mutant(new ReferenceProvider().create(config.withVectorKernels(false)), m); }
    }

    /** Delegates everything to the reference backend, then corrupts the mutated kernel's result on the host. */
    private static final class Mutant extends ForwardingBackend {
        private final Backend d;
        private final Mutation m;

        Mutant(Backend d, Mutation m) {
            super(d);
            this.d = d;
            this.m = m;
        }

        @Override
        public Buffer unary(UnaryOp op, Operand x, DType out) {
            Buffer r = d.unary(op, x, out);
            if (m != Mutation.EXP_F32_ULPS || op != UnaryOp.EXP || out != DType.F32 || x.size() == 0) return r;
            return edit(r, out, x.size(), host -> {
                float v = (float) HostElements.getDouble(host, out, 0);
                if (Float.isFinite(v) && v != 0) HostElements.setDouble(host, out, 0, Float.intBitsToFloat(Float.floatToRawIntBits(v) + 64));
            });
        }

        @Override
        public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
            Buffer r = d.binary(op, a, b, outShape, out);
            long n = outShape.size();
            if (n == 0) return r;
            if (m == Mutation.ADD_S32_OFF_BY_ONE && op == BinaryOp.ADD && out == DType.S32) {
                return edit(r, out, n, host -> HostElements.setLong(host, out, 0, HostElements.getLong(host, out, 0) + 1));
            }
            if (m == Mutation.MIN_LOSES_NEGATIVE_ZERO && op == BinaryOp.MIN && out.isFloat()) {
                return edit(r, out, n, host -> {
                    for (long i = 0; i < n; i++) {
                        double v = HostElements.getDouble(host, out, i);
                        if (v == 0) HostElements.setDouble(host, out, i, 0.0);
                    }
                });
            }
            return r;
        }

        private Buffer edit(Buffer r, DType t, long n, java.util.function.Consumer<MemorySegment> change) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment host = arena.allocate(n * t.byteSize(), 8);
                d.download(r, 0, host);
                change.accept(host);
                r.release();
                return d.upload(host);
            }
        }

        @Override public String name() { return "mutant"; }
    }
}
