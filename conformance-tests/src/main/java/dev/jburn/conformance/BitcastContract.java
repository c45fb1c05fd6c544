package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bitcast}: every dtype to every dtype matches the oracle (types of another width, and
 * PRED as a target, fail naming {@code bitcast} and both types); floats become their IEEE
 * encodings; to a type of the same width and back, through any chain of such types, is the
 * identity bit for bit, NaN payloads and signalling NaNs included.
 */
public interface BitcastContract extends EngineContract {

    @Test
    @Covers("bitcast")
    default void bitcastToEveryTypeMatchesTheOracle() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            for (DType to : DType.values()) {
                String label = x + " bitcast " + to.shortName();
                Oracle.check(engine(), label, x, Tolerance.EXACT, in -> in.bitcast(to));
                boolean allowed = to.bits() == x.dtype().bits() && (!to.isPred() || x.dtype().isPred());
                if (allowed) {
                    Tensor r = t.bitcast(to);
                    assertEquals(to, r.dtype(), label);
                    assertEquals(x.shape(), r.shape(), label);
                } else {
                    JBurnException e = assertThrows(JBurnException.class, () -> t.bitcast(to), label);
                    assertEquals("bitcast", e.op(), label);
                    assertTrue(e.reason().contains(x.dtype().shortName()) && e.reason().contains(to.shortName()),
                            () -> label + ": the reason should name both types: " + e.reason());
                }
            }
        });
    }

    @Test
    @Covers("bitcast")
    default void floatsBecomeTheirIeeeEncoding() {
        Props.forAll(Generators.tensors(Generators.floatTypes()), x -> {
            DType d = x.dtype();
            DType bitsType = DType.unsigned(d.bits());
            TensorCase got = TensorCase.of(x.on(engine()).bitcast(bitsType));
            StringBuilder bad = new StringBuilder();
            for (int i = 0; i < x.size(); i++) {
                double v = x.doubleAt(i);
                long b = got.longAt(i);
                boolean ok = Double.isNaN(v) ? isNaNEncoding(d, b) : b == encoding(d, v);
                if (!ok) {
                    bad.append("\n    at flat index ").append(i).append(": ").append(v).append(" gave 0x").append(Long.toHexString(b))
                            .append(Double.isNaN(v) ? ", not a NaN" : ", expected 0x" + Long.toHexString(encoding(d, v)));
                }
            }
            if (!bad.isEmpty()) Assertions.fail(x + " bitcast " + bitsType.shortName() + " on engine '" + engine().name() + "'" + bad);
        });
    }

    @Test
    @Covers("bitcast")
    default void bitcastThereAndBackIsTheIdentityBitForBit() {
        Gen<TensorCase> raw = rs -> {
            int bits = Generate.pick(List.of(8, 16, 32, 64)).generate(rs);
            DType u = DType.unsigned(bits);
            Shape s = Shapes.any().generate(rs);
            Gen<Long> v = Generate.frequency(List.of(Pair.of(1, Generate.pick(nanPatterns(bits))),
                    Pair.of(2, Elements.integers(u, Elements.Mix.ALL))));
            long[] values = new long[(int) s.size()];
            for (int i = 0; i < values.length; i++) values[i] = v.generate(rs);
            return TensorCase.ofLongs(u, s, values);
        };
        Props.forAll(raw, x -> {
            Tensor t = x.on(engine());
            List<DType> same = new ArrayList<>();
            for (DType d : DType.values()) if (d.bits() == x.dtype().bits() && !d.isPred()) same.add(d);
            for (DType via : same) {
                TensorAssert.assertSame(x + " bitcast " + via.shortName() + " and back", x, t.bitcast(via).bitcast(x.dtype()));
            }
            Tensor chain = t;
            for (DType via : same) chain = chain.bitcast(via);
            for (int i = same.size() - 1; i >= 0; i--) chain = chain.bitcast(same.get(i));
            TensorAssert.assertSame(x + " bitcast through " + same + " and back", x, chain.bitcast(x.dtype()));
        });
    }

    /** Bit patterns of NaNs (quiet, signalling, with payloads, negative) and infinities of the float types of that width. */
    private static List<Long> nanPatterns(int bits) {
        return switch (bits) {
            case 16 -> List.of(0x7C01L, 0x7E00L, 0xFE01L, 0x7FFFL, 0xFC00L, 0x7D55L, // f16
                    0x7F81L, 0x7FC0L, 0xFF81L, 0x7FAAL, 0xFF80L);                       // bf16
            case 32 -> List.of(0x7F80_0001L, 0x7FC0_0000L, 0xFFFF_FFFFL, 0x7FBF_FFFFL, 0xFF80_0001L, 0x7FA5_5555L, 0xFF80_0000L);
            case 64 -> List.of(0x7FF0_0000_0000_0001L, 0x7FF8_0000_0000_0000L, -1L, 0x7FF7_FFFF_FFFF_FFFFL,
                    0xFFF0_0000_0000_0001L, 0x7FF5_5555_5555_5555L, 0xFFF0_0000_0000_0000L);
            default -> List.of(0xFFL, 0x80L, 0x7FL);
        };
    }

    /** The IEEE encoding of non-NaN {@code v} (exactly representable in {@code d}), as the unsigned type of its width reads it. */
    private static long encoding(DType d, double v) {
        return switch (d) {
            case F64 -> Double.doubleToRawLongBits(v);
            case F32 -> Float.floatToRawIntBits((float) v) & 0xFFFF_FFFFL;
            case F16 -> Float.floatToFloat16((float) v) & 0xFFFFL;
            case BF16 -> Float.floatToRawIntBits((float) v) >>> 16;
            default -> throw new IllegalArgumentException(d + " is not a float type");
        };
    }

    /** Whether {@code b} encodes a NaN of {@code d}: exponent all ones, fraction non-zero. */
    private static boolean isNaNEncoding(DType d, long b) {
        int m = FloatFormats.mantissaBits(d);
        int e = d.bits() - 1 - m;
        long exponent = (b >>> m) & ((1L << e) - 1);
        long fraction = b & ((1L << m) - 1);
        return exponent == (1L << e) - 1 && fraction != 0;
    }
}
