package dev.jburn;

import dev.jburn.spi.HostElements;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;

/**
 * Counter-based random numbers from explicit keys (Threefry-2x32-20, bit-compatible with JAX
 * and Nx.Random): the same key gives the same numbers on every engine and every run.
 * A key is a {@code u32[2]} tensor.
 *
 * <pre>{@code
 * Tensor key = Prng.key(42);
 * Prng.Sample s = Prng.normal(key, Shape.of(3), DType.F32, 0, 1);
 * Tensor values = s.values();          // f32[3]
 * Tensor key2 = s.nextKey();           // use for the next draw
 * Tensor[] keys = Prng.split(key, 4); // independent streams
 * }</pre>
 *
 * The sampling functions follow Nx: they split the key, draw with the second half and return
 * the first half as the next key. The {@code *Split} variants draw with the given key as-is.
 * Numbers are generated on the host and placed on the key's engine.
 */
public final class Prng {
    private Prng() {}

    /**
     * A sample and the key to use for the next draw.
     *
     * @param values  the random tensor
     * @param nextKey a fresh key, independent of the one used for {@code values}
     */
    public record Sample(Tensor values, Tensor nextKey) {}

    /** A key from a 64-bit seed: {@code [seed >>> 32, seed & 0xFFFFFFFF]} as u32. */
    public static Tensor key(long seed) {
        return words(new int[] {(int) (seed >>> 32), (int) seed}, Shape.of(2), Engine.defaultEngine());
    }

    /** Two keys derived from {@code key}, as a {@code u32[2,2]} tensor (row 0 is Nx's next key, row 1 its sample key). */
    public static Tensor split(Tensor key) {
        int[] k = keyWords("split", key);
        return words(Threefry.bits(k[0], k[1], 4), Shape.of(2, 2), key.engine());
    }

    /** {@code parts} independent keys derived from {@code key}. */
    public static Tensor[] split(Tensor key, int parts) {
        if (parts < 1) throw new JBurnException("split", "parts must be >= 1, got " + parts);
        int[] k = keyWords("split", key);
        int[] w = Threefry.bits(k[0], k[1], 2L * parts);
        Tensor[] out = new Tensor[parts];
        for (int i = 0; i < parts; i++) out[i] = words(new int[] {w[2 * i], w[2 * i + 1]}, Shape.of(2), key.engine());
        return out;
    }

    /** A key derived from {@code key} and the integer {@code data} (e.g. a step or layer index). */
    public static Tensor foldIn(Tensor key, long data) {
        int[] k = keyWords("foldIn", key);
        int[] y = Threefry.block(k[0], k[1], (int) (data >>> 32), (int) data);
        return words(y, Shape.of(2), key.engine());
    }

    /**
     * Raw random bits of an unsigned type ({@code U8, U16, U32, U64}) with the given shape,
     * exactly as JAX's {@code random_bits}.
     */
    public static Tensor bits(Tensor key, Shape shape, DType type) {
        Args.nonNull("bits", "shape", shape, "type", type);
        if (!type.isUnsigned()) throw new JBurnException("bits", "bits are drawn as an unsigned type, got " + type.shortName());
        int[] k = keyWords("bits", key);
        shape.requireConcrete("bits");
        long[] v = rawBits(k, shape.size(), type.bits());
        return longs(v, shape, type, key.engine());
    }

    /** Uniform floats in {@code [min, max)}; see {@link #uniformSplit}. */
    public static Sample uniform(Tensor key, Shape shape, DType type, double min, double max) {
        Args.nonNull("uniform", "shape", shape, "type", type);
        Tensor[] ks = nxSplit("uniform", key);
        return new Sample(uniformSplit(ks[1], shape, type, min, max), ks[0]);
    }

    /**
     * Uniform floats in {@code [min, max)} drawn with {@code key} itself: mantissa bits under
     * an exponent of one give {@code [1, 2)}, minus one, scaled — in the precision of {@code type}.
     */
    public static Tensor uniformSplit(Tensor key, Shape shape, DType type, double min, double max) {
        Args.nonNull("uniform", "shape", shape, "type", type);
        checkFloat("uniform", type);
        int[] k = keyWords("uniform", key);
        shape.requireConcrete("uniform");
        double[] u = unitUniform(k, shape.size(), type);
        double span = HostElements.roundTo(type, max - min);
        double lo = HostElements.roundTo(type, min);
        double below = belowMax(type, max);
        for (int i = 0; i < u.length; i++) {
            double v = HostElements.roundTo(type, HostElements.roundTo(type, u[i] * span) + lo);
            u[i] = Math.min(Math.max(v, lo), below);
        }
        return doubles(u, shape, type, key.engine());
    }

    /** Normal floats with the given mean and standard deviation; see {@link #normalSplit}. */
    public static Sample normal(Tensor key, Shape shape, DType type, double mean, double std) {
        Args.nonNull("normal", "shape", shape, "type", type);
        Tensor[] ks = nxSplit("normal", key);
        return new Sample(normalSplit(ks[1], shape, type, mean, std), ks[0]);
    }

    /**
     * Normal floats drawn with {@code key} itself: {@code sqrt(2) * erfInv(u)} for {@code u}
     * uniform in {@code (-1, 1)}, then scaled and shifted.
     */
    public static Tensor normalSplit(Tensor key, Shape shape, DType type, double mean, double std) {
        Args.nonNull("normal", "shape", shape, "type", type);
        checkFloat("normal", type);
        int[] k = keyWords("normal", key);
        shape.requireConcrete("normal");
        double[] u = unitUniform(k, shape.size(), type);
        double lo = nextAfterMinusOne(type);
        double span = HostElements.roundTo(type, 1.0 - lo);
        double[] z = new double[u.length];
        for (int i = 0; i < u.length; i++) {
            double x = Math.max(HostElements.roundTo(type, HostElements.roundTo(type, u[i] * span) + lo), lo);
            double e = type == DType.F64 ? dev.jburn.spi.ScalarMath.erfInv(x) : dev.jburn.spi.ScalarMath.erfInvNx(x);
            double n = HostElements.roundTo(type, HostElements.roundTo(type, Math.sqrt(2)) * HostElements.roundTo(type, e));
            z[i] = HostElements.roundTo(type, HostElements.roundTo(type, n * std) + mean);
        }
        return doubles(z, shape, type, key.engine());
    }

    /** Integers uniform in {@code [min, max)}; see {@link #randintSplit}. */
    public static Sample randint(Tensor key, long min, long max, Shape shape, DType type) {
        Args.nonNull("randint", "shape", shape, "type", type);
        checkRange(min, max, type);
        Tensor[] ks = nxSplit("randint", key);
        return new Sample(randintSplit(ks[1], min, max, shape, type), ks[0]);
    }

    /** Integers uniform in {@code [min, max)} drawn with {@code key} itself, as Nx/JAX {@code randint}. */
    public static Tensor randintSplit(Tensor key, long min, long max, Shape shape, DType type) {
        Args.nonNull("randint", "shape", shape, "type", type);
        checkRange(min, max, type);
        int[] k = keyWords("randint", key);
        long n = shape.requireConcrete("randint").size();
        int w = type.bits();
        long[] b = rawBits(k, 2 * n, w);
        BigInteger mask = BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);
        BigInteger span = BigInteger.valueOf(max).subtract(BigInteger.valueOf(min)).and(mask);
        // The whole type's range wraps the span to 0; XLA's remainder by zero is the dividend, so JAX
        // then takes the low word as the offset, and so does JBurn.
        boolean whole = span.signum() == 0;
        BigInteger mult = whole ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(w / 2).mod(span).pow(2).mod(span);
        long[] out = new long[(int) n];
        for (int i = 0; i < n; i++) {
            BigInteger hi = new BigInteger(Long.toUnsignedString(b[i]));
            BigInteger lo = new BigInteger(Long.toUnsignedString(b[(int) n + i]));
            BigInteger off = whole ? lo.and(mask) : hi.mod(span).multiply(mult).add(lo.mod(span)).mod(span);
            out[i] = min + off.longValue();
        }
        return longs(out, shape, type, key.engine());
    }

    // ---- helpers --------------------------------------------------------------------------

    /**
     * An integer type, and {@code [min, max)} non-empty and inside the type's range: the span is
     * reduced modulo the type's width, so a wider range could not be drawn uniformly (Nx clamps
     * the bounds to the type instead; JBurn refuses, so that no requested value is silently never drawn).
     */
    private static void checkRange(long min, long max, DType type) {
        if (!type.isInteger()) throw new JBurnException("randint", "randint draws an integer type, got " + type.shortName());
        if (max <= min) throw new JBurnException("randint", "max (" + max + ") must be greater than min (" + min + ")");
        int w = type.bits();
        BigInteger lo = type.isUnsigned() ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(w - 1).negate();
        BigInteger hi = type.isUnsigned() ? BigInteger.ONE.shiftLeft(w) : BigInteger.ONE.shiftLeft(w - 1);
        BigInteger bmin = BigInteger.valueOf(min), bmax = BigInteger.valueOf(max);
        if (type == DType.U64 && (min < 0 || max < 0)) {
            throw new JBurnException("randint", "[" + min + ", " + max + ") is outside the range of u64 (Java longs are signed)");
        }
        if (bmin.compareTo(lo) < 0 || bmax.compareTo(hi) > 0) {
            throw new JBurnException("randint", "[" + min + ", " + max + ") is wider than " + type.shortName()
                    + ", whose values are [" + lo + ", " + hi + ")");
        }
    }

    /**
     * The largest value of {@code type} below {@code max}. Scaling {@code [0,1)} to {@code [min,max)}
     * in the type's precision can round up to {@code max} (Nx and JAX return it then); JBurn
     * clamps so that {@code uniform} keeps its promise of a half-open range.
     */
    private static double belowMax(DType type, double max) {
        double m = HostElements.roundTo(type, max);
        return switch (type) {
            case F64 -> Math.nextDown(m);
            case F32 -> Math.nextDown((float) m);
            case F16 -> Float.float16ToFloat(nextDown16(Float.floatToFloat16((float) m), m));
            case BF16 -> HostElements.bf16ToFloat(nextDown16(HostElements.floatToBf16((float) m), m));
            default -> throw new IllegalStateException(type.toString());
        };
    }

    /** The next 16-bit float below the one with bits {@code b} (value {@code m}); sign-magnitude bit arithmetic. */
    private static short nextDown16(short b, double m) {
        if (m == 0) return (short) 0x8001; // the smallest negative subnormal
        return (short) (m > 0 ? b - 1 : b + 1);
    }

    /** The float just above -1 in the precision of {@code type}, so that erfInv stays finite. */
    private static double nextAfterMinusOne(DType type) {
        return switch (type) {
            case F64 -> Math.nextUp(-1.0);
            case F32 -> Math.nextUp(-1.0f);
            case F16 -> -1.0 + 0x1p-11;
            case BF16 -> -1.0 + 0x1p-8;
            default -> throw new IllegalStateException(type.toString());
        };
    }

    private static Tensor[] nxSplit(String op, Tensor key) {
        int[] k = keyWords(op, key);
        int[] w = Threefry.bits(k[0], k[1], 4);
        return new Tensor[] {
            words(new int[] {w[0], w[1]}, Shape.of(2), key.engine()),
            words(new int[] {w[2], w[3]}, Shape.of(2), key.engine())};
    }

    /** Words of the requested width: 32 bits as drawn, 64 bits from pairs, 8/16 bits as low bits. */
    private static long[] rawBits(int[] k, long n, int width) {
        // Host arrays of about 24 bytes per sample are made on the way.
        dev.jburn.spi.HostMemory.check(n > Long.MAX_VALUE / 24 ? -1 : n * 24);
        if (width == 64) {
            int[] w = Threefry.bits(k[0], k[1], 2 * n);
            long[] v = new long[(int) n];
            for (int i = 0; i < n; i++) v[i] = ((long) w[i] << 32) | (w[(int) n + i] & 0xFFFF_FFFFL);
            return v;
        }
        int[] w = Threefry.bits(k[0], k[1], n);
        long mask = width == 32 ? 0xFFFF_FFFFL : (1L << width) - 1;
        long[] v = new long[(int) n];
        for (int i = 0; i < n; i++) v[i] = w[i] & mask;
        return v;
    }

    /** Uniform values in [0, 1) at the precision of {@code type}, built from mantissa bits. */
    private static double[] unitUniform(int[] k, long n, DType type) {
        int width = type == DType.F64 ? 64 : type == DType.F32 ? 32 : 16;
        long[] b = rawBits(k, n, width);
        double[] u = new double[b.length];
        for (int i = 0; i < b.length; i++) {
            u[i] = switch (type) {
                case F64 -> Double.longBitsToDouble((b[i] >>> 12) | Double.doubleToRawLongBits(1.0)) - 1.0;
                case F32 -> Float.intBitsToFloat((int) ((b[i] >>> 9) | Float.floatToRawIntBits(1.0f))) - 1.0f;
                case F16 -> Float.float16ToFloat((short) ((b[i] >>> 6) | 0x3C00)) - 1.0;
                case BF16 -> HostElements.bf16ToFloat((short) ((b[i] >>> 9) | 0x3F80)) - 1.0;
                default -> throw new IllegalStateException(type.toString());
            };
        }
        return u;
    }

    private static int[] keyWords(String op, Tensor key) {
        Args.nonNull(op, "key", key);
        if (key.dtype() != DType.U32 || !key.shape().equals(Shape.of(2))) {
            throw new JBurnException(op, "expected a key of type u32 and shape [2] (see Prng.key), got "
                    + key.dtype().shortName() + key.shape());
        }
        long[] w = key.toLongArray();
        return new int[] {(int) w[0], (int) w[1]};
    }

    private static void checkFloat(String op, DType type) {
        if (!type.isFloat()) throw new JBurnException(op, op + " draws a float type, got " + type.shortName());
    }

    private static Tensor words(int[] w, Shape shape, Engine engine) {
        long[] v = new long[w.length];
        for (int i = 0; i < w.length; i++) v[i] = w[i] & 0xFFFF_FFFFL;
        return longs(v, shape, DType.U32, engine);
    }

    private static Tensor longs(long[] v, Shape shape, DType type, Engine engine) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = arena.allocate(Math.max(1, v.length * (long) type.byteSize()), 8).asSlice(0, v.length * (long) type.byteSize());
            for (int i = 0; i < v.length; i++) HostElements.setLong(h, type, i, v[i]);
            return Tensor.wrap(engine, engine.backend().upload(h), type, shape).remember(h);
        }
    }

    private static Tensor doubles(double[] v, Shape shape, DType type, Engine engine) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = arena.allocate(Math.max(1, v.length * (long) type.byteSize()), 8).asSlice(0, v.length * (long) type.byteSize());
            for (int i = 0; i < v.length; i++) HostElements.setDouble(h, type, i, v[i]);
            return Tensor.wrap(engine, engine.backend().upload(h), type, shape).remember(h);
        }
    }
}
