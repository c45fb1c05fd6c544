package dev.jburn;

/**
 * Element types, as in Nx, plus {@link #PRED} for comparison and logical results.
 *
 * <h2>Type promotion ({@link #merge})</h2>
 * Kind precedence is {@code f > bf > s > u > pred}.
 * <ul>
 *   <li>Same kind: that kind at the larger width ({@code S8+S64 -> S64}).</li>
 *   <li>{@code U(m)} with {@code S(n)}: {@code S(max(min(2m,64), n))} — {@code U8+S8 -> S16},
 *       {@code U32+S32 -> S64}, {@code U64+S64 -> S64}.</li>
 *   <li>Integer with float: the float type as-is ({@code S64+F16 -> F16}, {@code S32+F32 -> F32}).</li>
 *   <li>Float with float: the wider; {@code F16+BF16 -> F32} (as JAX; Nx would give F16).</li>
 *   <li>{@code PRED} with anything: the other type ({@code PRED+PRED -> PRED}).</li>
 * </ul>
 * A Java number combined with a tensor is weakly typed ({@link #mergeScalar(DType, long)}):
 * {@code U8 + 10 -> U8}, {@code U8 + 256 -> U16}, {@code U8 + -1 -> S16}, {@code S32 + 1.5 -> F32}.
 *
 * <h2>Casting</h2>
 * Float to integer truncates toward zero; NaN becomes 0, +Inf the type's maximum and -Inf its
 * minimum; other out-of-range values keep their low bits. Integer to integer keeps the low
 * bits (two's complement wrap). F16 and BF16 round to nearest even. Anything to {@code PRED}
 * is {@code value != 0}.
 *
 * <pre>{@code
 * DType.merge(DType.U8, DType.S8);        // S16
 * DType.mergeScalar(DType.U8, 256);       // U16
 * DType.S32.toFloating();                 // F32
 * }</pre>
 */
public enum DType {
    U8(Kind.UNSIGNED, 8), U16(Kind.UNSIGNED, 16), U32(Kind.UNSIGNED, 32), U64(Kind.UNSIGNED, 64),
    S8(Kind.SIGNED, 8), S16(Kind.SIGNED, 16), S32(Kind.SIGNED, 32), S64(Kind.SIGNED, 64),
    F16(Kind.FLOAT, 16), BF16(Kind.BFLOAT, 16), F32(Kind.FLOAT, 32), F64(Kind.FLOAT, 64),
    /** Boolean, stored as one byte holding 0 or 1. */
    PRED(Kind.PRED, 8);

    /** The families whose precedence drives promotion. */
    public enum Kind { PRED, UNSIGNED, SIGNED, BFLOAT, FLOAT }

    private final Kind kind;
    private final int bits;

    DType(Kind kind, int bits) {
        this.kind = kind;
        this.bits = bits;
    }

    public Kind kind() { return kind; }

    /** Width in bits of one element. */
    public int bits() { return bits; }

    /** Width in bytes of one element. */
    public int byteSize() { return bits / 8; }

    /**
     * The bytes of {@code elements} elements of this type, overflow-checked: every place a shape
     * becomes a byte count goes through here, so that a count past 2^63 fails (naming the op the
     * user called) instead of wrapping to a small or negative size.
     *
     * <pre>{@code DType.F32.byteSize(6)   // 24}</pre>
     */
    public long byteSize(long elements) {
        if (elements < 0) throw new JBurnException(dev.jburn.spi.UserOp.name("allocate"), "negative element count " + elements);
        try {
            return Math.multiplyExact(elements, (long) byteSize());
        } catch (ArithmeticException e) {
            throw new JBurnException(dev.jburn.spi.UserOp.name("allocate"),
                    elements + " elements of " + shortName() + " need more than 2^63 bytes");
        }
    }

    /** The bytes of a tensor of {@code shape} and this type; see {@link #byteSize(long)}. */
    public long byteSize(Shape shape) { return byteSize(shape.size()); }

    /** True for the signed and unsigned integer types (not {@code PRED}). */
    public boolean isInteger() { return kind == Kind.SIGNED || kind == Kind.UNSIGNED; }

    public boolean isSigned() { return kind == Kind.SIGNED; }

    public boolean isUnsigned() { return kind == Kind.UNSIGNED; }

    /** True for F16, BF16, F32 and F64. */
    public boolean isFloat() { return kind == Kind.FLOAT || kind == Kind.BFLOAT; }

    public boolean isPred() { return kind == Kind.PRED; }

    /** Short lower-case name as Nx prints it: {@code f32}, {@code s64}, {@code pred}. */
    public String shortName() { return name().toLowerCase(java.util.Locale.ROOT); }

    /** Float types unchanged; every integer type and {@code PRED} become F32 (Nx {@code to_floating}). */
    public DType toFloating() { return isFloat() ? this : F32; }

    /** Smallest value of an integer type as a signed long (0 for unsigned); for floats, -Inf is not representable here. */
    public long minLong() {
        return switch (this) {
            case S8 -> Byte.MIN_VALUE;
            case S16 -> Short.MIN_VALUE;
            case S32 -> Integer.MIN_VALUE;
            case S64 -> Long.MIN_VALUE;
            default -> 0L;
        };
    }

    /** Largest value of an integer type as raw bits in a long (U64's maximum is {@code -1L}, i.e. 2^64-1 unsigned). */
    public long maxLong() {
        return switch (this) {
            case U8 -> 0xFFL;
            case U16 -> 0xFFFFL;
            case U32 -> 0xFFFF_FFFFL;
            case U64 -> -1L;
            case S8 -> Byte.MAX_VALUE;
            case S16 -> Short.MAX_VALUE;
            case S32 -> Integer.MAX_VALUE;
            case S64 -> Long.MAX_VALUE;
            case PRED -> 1L;
            default -> throw new JBurnException("dtype", "maxLong is defined for integer types, got " + this);
        };
    }

    /** Type promotion of two tensors; see the class documentation for the table. */
    public static DType merge(DType a, DType b) {
        if (a == b) return a;
        if (a.kind == Kind.PRED) return b;
        if (b.kind == Kind.PRED) return a;
        if (a.isFloat() || b.isFloat()) {
            if (!a.isFloat()) return b;
            if (!b.isFloat()) return a;
            if (a.bits != b.bits) return a.bits > b.bits ? a : b;
            return F32; // F16 with BF16: neither holds the other exactly
        }
        if (a.kind == b.kind) return a.bits >= b.bits ? a : b;
        DType u = a.isUnsigned() ? a : b;
        DType s = a.isUnsigned() ? b : a;
        return signed(Math.max(Math.min(2 * u.bits, 64), s.bits));
    }

    /** Promotion of several types, left to right. */
    public static DType merge(DType first, DType... rest) {
        DType t = first;
        for (DType d : rest) t = merge(t, d);
        return t;
    }

    /**
     * Promotion of a tensor type with a weakly typed Java integer: the tensor keeps its type
     * unless the number does not fit ({@code U8 + 256 -> U16}, {@code U8 + -1 -> S16}).
     */
    public static DType mergeScalar(DType t, long n) {
        return switch (t.kind) {
            case FLOAT, BFLOAT -> t;
            case PRED -> mergeScalar(U8, n);
            case UNSIGNED -> n >= 0
                    ? unsigned(Math.max(t.bits, unsignedWidth(n)))
                    : signed(Math.max(Math.min(2 * t.bits, 64), signedWidth(n)));
            case SIGNED -> signed(Math.max(t.bits, signedWidth(n)));
        };
    }

    /** Promotion of a tensor type with a weakly typed Java floating-point number: integers become F32. */
    public static DType mergeScalar(DType t, double n) {
        return t.isFloat() ? t : F32;
    }

    /** The signed integer type of the given width. */
    public static DType signed(int bits) {
        return switch (bits) {
            case 8 -> S8;
            case 16 -> S16;
            case 32 -> S32;
            case 64 -> S64;
            default -> throw new JBurnException("dtype", "no signed type of " + bits + " bits");
        };
    }

    /** The unsigned integer type of the given width. */
    public static DType unsigned(int bits) {
        return switch (bits) {
            case 8 -> U8;
            case 16 -> U16;
            case 32 -> U32;
            case 64 -> U64;
            default -> throw new JBurnException("dtype", "no unsigned type of " + bits + " bits");
        };
    }

    /** Parses {@code "f32"}, {@code "F32"}, {@code "bf16"}, {@code "pred"}. */
    public static DType parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new JBurnException("dtype", "unknown dtype '" + name + "', expected one of "
                    + java.util.Arrays.toString(values()).toLowerCase(java.util.Locale.ROOT));
        }
    }

    private static int unsignedWidth(long n) {
        if (n <= 0xFFL) return 8;
        if (n <= 0xFFFFL) return 16;
        if (n <= 0xFFFF_FFFFL) return 32;
        return 64;
    }

    private static int signedWidth(long n) {
        if (n >= Byte.MIN_VALUE && n <= Byte.MAX_VALUE) return 8;
        if (n >= Short.MIN_VALUE && n <= Short.MAX_VALUE) return 16;
        if (n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE) return 32;
        return 64;
    }
}
