package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.op.RandomOp;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@link Prng} (Threefry-2x32-20, bit-compatible with JAX and Nx.Random) with keys on the
 * engine under test: the same key gives the oracle's numbers bit for bit and the results live
 * on the engine; the Threefry and Nx known answers of NX-SEMANTICS §8; samples stay in their
 * ranges; derived keys differ; a sampling function splits its key first, as Nx does.
 *
 * <p>Ranges: {@code randint} and {@code uniform} are in {@code [min, max)}. {@code uniform}
 * computes {@code u * (max - min) + min} in the target precision, as Nx and JAX do; where that
 * rounds up to {@code max} (likely in BF16/F16, e.g. {@code [8, 9)}), JBurn clamps to the value
 * just below {@code max}, so the half-open range holds strictly.
 */
public interface RandomContract extends EngineContract {

    /**
     * One set of arguments for every random function.
     *
     * @param seed  the key's seed ({@code Prng.key(seed)})
     * @param lo    uniform's lower bound (a half in [-10, 10], exact in every float type); {@code hi > lo}
     * @param min   randint's lower bound, within {@code intType}; {@code max > min}
     * @param parts how many keys {@code split} makes
     */
    record Draw(long seed, Shape shape, DType floatType, DType intType, DType bitsType, double lo, double hi,
                long min, long max, long data, int parts) {
        TensorCase key() { return TensorCase.ofLongs(DType.U32, Shape.of(2), seed >>> 32, seed); }

        @Override
        public String toString() {
            return "key(" + seed + "), shape " + shape + ", " + floatType.shortName() + " in [" + lo + ", " + hi + "), "
                    + intType.shortName() + " in [" + min + ", " + max + "), bits " + bitsType.shortName()
                    + ", foldIn " + data + ", split into " + parts;
        }
    }

    @Test
    @Covers(families = RandomOp.class)
    default void theSameKeyGivesTheOraclesNumbers() {
        Props.forAll(draws(), d -> Oracle.check(engine(), d, Tolerance.EXACT, List.of(d.key()), in -> {
            Tensor k = in.get(0);
            List<Tensor> out = new ArrayList<>(List.of(
                    Prng.bits(k, d.shape(), d.bitsType()),
                    Prng.split(k),
                    Prng.foldIn(k, d.data()),
                    Prng.uniformSplit(k, d.shape(), d.floatType(), d.lo(), d.hi()),
                    Prng.normalSplit(k, d.shape(), d.floatType(), d.lo(), d.hi() - d.lo()),
                    Prng.randintSplit(k, d.min(), d.max(), d.shape(), d.intType())));
            out.addAll(Arrays.asList(Prng.split(k, d.parts())));
            for (Prng.Sample s : List.of(Prng.uniform(k, d.shape(), d.floatType(), d.lo(), d.hi()),
                    Prng.normal(k, d.shape(), d.floatType(), d.lo(), 2.0),
                    Prng.randint(k, d.min(), d.max(), d.shape(), d.intType()))) {
                out.add(s.values());
                out.add(s.nextKey());
            }
            return out;
        }));
    }

    @Test
    @Covers({"foldIn", "threefryBits"})
    default void threefryMatchesTheKnownAnswers() {
        // JAX testThreefry2x32 (Random123): one block TF(key; counter) is foldIn(key, counter as a u64).
        assertWords("TF(0, 0; 0, 0)", new long[] {0x6b200159L, 0x99ba4efeL}, Prng.foldIn(key(0, 0), 0));
        assertWords("TF(-1, -1; -1, -1)", new long[] {0x1cb996fcL, 0xbb002be7L},
                Prng.foldIn(key(0xFFFF_FFFFL, 0xFFFF_FFFFL), 0xFFFF_FFFF_FFFF_FFFFL));
        assertWords("TF(pi digits)", new long[] {0xc4923a9cL, 0x483df7a0L},
                Prng.foldIn(key(0x13198a2eL, 0x03707344L), 0x243f6a88_85a308d3L));
        assertWords("key(12)", new long[] {0, 12}, Prng.key(12));
        assertWords("key(999999999999)", new long[] {232, 3567587327L}, Prng.key(999999999999L));
        assertWords("foldIn(key(42), 99)", new long[] {2015327502, 1351855566}, Prng.foldIn(seed(42), 99));
        assertWords("foldIn(key(42), 1234)", new long[] {1356445167, 2917756949L}, Prng.foldIn(seed(42), 1234));
        Tensor bits = Prng.bits(seed(1701), Shape.of(3), DType.U32);
        TensorAssert.assertSame("JAX _random_bits(PRNGKey(1701), 32, (3,))",
                TensorCase.ofLongs(DType.U32, Shape.of(3), 56197195, 4200222568L, 961309823), bits);
        assertEquals(engine(), bits.engine(), "bits live on the key's engine");
    }

    @Test
    @Covers({"split", "uniform", "normal", "randint"})
    default void nxKnownAnswers() {
        TensorAssert.assertSame("split(key(1701))", TensorCase.ofLongs(DType.U32, Shape.of(2, 2),
                56197195, 1801093307, 961309823, 1704866707), Prng.split(seed(1701)));
        assertWords("split(key(1701), parts: 4)[0]", new long[] {4000152724L, 2030591747}, Prng.split(seed(1701), 4)[0]);
        TensorAssert.assertSame("uniform(key(12))", TensorCase.ofDoubles(DType.F32, Shape.scalar(), 0.7691127f),
                Prng.uniform(seed(12), Shape.scalar(), DType.F32, 0, 1).values());
        TensorAssert.assertSame("uniform(key(1701))", TensorCase.ofDoubles(DType.F32, Shape.scalar(), 0.9728644f),
                Prng.uniform(seed(1701), Shape.scalar(), DType.F32, 0, 1).values());
        TensorAssert.assertSame("randint(key(1701), 1, 100)", TensorCase.ofLongs(DType.S32, Shape.scalar(), 91),
                Prng.randint(seed(1701), 1, 100, Shape.scalar(), DType.S32).values());
        TensorAssert.assertSame("randint(key(1701), 1, 100, shape: {3, 2}, type: :u32)",
                TensorCase.ofLongs(DType.U32, Shape.of(3, 2), 9, 20, 19, 6, 71, 15),
                Prng.randint(seed(1701), 1, 100, Shape.of(3, 2), DType.U32).values());
        TensorAssert.assertSame("normal(key(42))", TensorCase.ofDoubles(DType.F32, Shape.scalar(), 1.3694695f),
                Prng.normal(seed(42), Shape.scalar(), DType.F32, 0, 1).values());
    }

    @Test
    @Covers({"uniform", "normal", "randint"})
    default void samplesStayInTheirRanges() {
        Props.forAll(draws(), d -> {
            Tensor k = d.key().on(engine());
            TensorCase u = TensorCase.of(Prng.uniform(k, d.shape(), d.floatType(), d.lo(), d.hi()).values());
            TensorCase u0 = TensorCase.of(Prng.uniformSplit(k, d.shape(), d.floatType(), 0, d.hi() - d.lo()));
            TensorCase z = TensorCase.of(Prng.normal(k, d.shape(), d.floatType(), d.lo(), 3).values());
            TensorCase n = TensorCase.of(Prng.randint(k, d.min(), d.max(), d.shape(), d.intType()).values());
            StringBuilder bad = new StringBuilder();
            for (int i = 0; i < u.size(); i++) {
                if (!(u.doubleAt(i) >= d.lo() && u.doubleAt(i) < d.hi())) bad.append("\n    uniform at ").append(i).append(": ").append(u.doubleAt(i));
                if (!(u0.doubleAt(i) >= 0 && u0.doubleAt(i) < d.hi() - d.lo())) bad.append("\n    uniform from 0 at ").append(i).append(": ").append(u0.doubleAt(i));
                if (!Double.isFinite(z.doubleAt(i))) bad.append("\n    normal at ").append(i).append(": ").append(z.doubleAt(i));
                if (n.longAt(i) < d.min() || n.longAt(i) >= d.max()) bad.append("\n    randint at ").append(i).append(": ").append(n.longAt(i));
            }
            if (!bad.isEmpty()) Assertions.fail(d + " on engine '" + engine().name() + "'" + bad);
            assertEquals(d.intType(), n.dtype(), d::toString);
            assertEquals(d.floatType(), u.dtype(), d::toString);
        });
    }

    @Test
    @Covers({"split", "foldIn", "uniform", "normal", "randint"})
    default void derivedKeysDifferAndSamplingSplitsFirst() {
        Props.forAll(draws(), d -> {
            Tensor k = d.key().on(engine());
            List<List<Long>> keys = new ArrayList<>();
            keys.add(words(k));
            for (Tensor part : Prng.split(k, d.parts())) keys.add(words(part));
            Tensor two = Prng.split(k);
            long[] rows = two.toLongArray();
            keys.add(List.of(rows[0], rows[1]));
            keys.add(List.of(rows[2], rows[3]));
            // split(k) is split(k, 2) as a matrix (both draw 4 words), so with 2 parts those keys repeat; nothing else may.
            Tensor[] halves = Prng.split(k, 2);
            assertEquals(List.of(rows[0], rows[1]), words(halves[0]), () -> d + ": split(k) row 0 vs split(k, 2)[0]");
            assertEquals(List.of(rows[2], rows[3]), words(halves[1]), () -> d + ": split(k) row 1 vs split(k, 2)[1]");
            long expected = d.parts() == 2 ? keys.size() - 2 : keys.size();
            assertEquals(expected, keys.stream().distinct().count(), () -> d + ": derived keys repeat: " + keys);
            assertFalse(words(Prng.foldIn(k, d.data())).equals(words(Prng.foldIn(k, d.data() + 1))),
                    () -> d + ": foldIn of two data values gave one key (Threefry is a bijection of the counter)");
            Tensor next = Tensor.of(new long[] {rows[0], rows[1]}).asType(DType.U32).to(engine());
            Tensor sampleKey = Tensor.of(new long[] {rows[2], rows[3]}).asType(DType.U32).to(engine());
            Prng.Sample u = Prng.uniform(k, d.shape(), d.floatType(), d.lo(), d.hi());
            TensorAssert.assertSame(d + ": uniform's next key is split(k)[0]", TensorCase.of(next), u.nextKey());
            TensorAssert.assertSame(d + ": uniform draws with split(k)[1]",
                    TensorCase.of(Prng.uniformSplit(sampleKey, d.shape(), d.floatType(), d.lo(), d.hi())), u.values());
            Prng.Sample z = Prng.normal(k, d.shape(), d.floatType(), d.lo(), 2);
            TensorAssert.assertSame(d + ": normal's next key is split(k)[0]", TensorCase.of(next), z.nextKey());
            TensorAssert.assertSame(d + ": normal draws with split(k)[1]",
                    TensorCase.of(Prng.normalSplit(sampleKey, d.shape(), d.floatType(), d.lo(), 2)), z.values());
            Prng.Sample r = Prng.randint(k, d.min(), d.max(), d.shape(), d.intType());
            TensorAssert.assertSame(d + ": randint's next key is split(k)[0]", TensorCase.of(next), r.nextKey());
            TensorAssert.assertSame(d + ": randint draws with split(k)[1]",
                    TensorCase.of(Prng.randintSplit(sampleKey, d.min(), d.max(), d.shape(), d.intType())), r.values());
        });
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static Gen<Draw> draws() {
        Gen<Long> seeds = Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE).mix(Generate.longRange(0, 2000), 30);
        Gen<Double> halves = Generate.range(-20, 20).map(i -> i / 2.0);
        Gen<DType> unsigned = Generators.oneOf(DType.U8, DType.U16, DType.U32, DType.U64);
        return rs -> {
            DType intType = Generators.integerTypes().generate(rs);
            Gen<Long> bound = Elements.integers(intType, Elements.Mix.ALL).map(v -> intType == DType.U64 ? v & Long.MAX_VALUE : v);
            long a = bound.generate(rs);
            long b = bound.generate(rs);
            long min = Math.min(a, b);
            long max = Math.max(a, b);
            if (min == max) {
                if (max < (intType == DType.U64 ? Long.MAX_VALUE : intType.maxLong())) max++;
                else min--;
            }
            double x = halves.generate(rs);
            double y = halves.generate(rs);
            double lo = Math.min(x, y);
            double hi = x == y ? lo + 0.5 : Math.max(x, y);
            return new Draw(seeds.generate(rs), Shapes.any().generate(rs), Generators.floatTypes().generate(rs), intType,
                    unsigned.generate(rs), lo, hi, min, max, Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE - 1).generate(rs),
                    Generate.range(1, 6).generate(rs));
        };
    }

    /** A key with the given words, on the engine under test. */
    private Tensor key(long k0, long k1) { return TensorCase.ofLongs(DType.U32, Shape.of(2), k0, k1).on(engine()); }

    /** {@code Prng.key(seed)} moved to the engine under test. */
    private Tensor seed(long seed) { return Prng.key(seed).to(engine()); }

    private void assertWords(String label, long[] expected, Tensor key) {
        assertEquals(DType.U32, key.dtype(), label);
        assertEquals(Shape.of(2), key.shape(), label);
        assertArrayEquals(expected, key.toLongArray(), label);
    }

    private static List<Long> words(Tensor key) { return Arrays.stream(key.toLongArray()).boxed().toList(); }
}
