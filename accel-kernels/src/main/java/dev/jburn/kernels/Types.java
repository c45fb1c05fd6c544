package dev.jburn.kernels;

import dev.jburn.DType;

/**
 * How each dtype lives in a kernel: its compute type (narrow integers widen to 32 bits, F16 and
 * BF16 compute in {@code f32}), the conversions from and to its storage, and the rounding that
 * brings a compute value back to the dtype after every operation.
 */
final class Types {
    private Types() {}

    /** The shared type name values of {@code t} are computed in. */
    static String compute(DType t) {
        return switch (t) {
            case PRED, U8, U16, U32 -> "u32";
            case S8, S16, S32 -> "i32";
            case U64 -> "u64";
            case S64 -> "i64";
            case F16, BF16, F32 -> "f32";
            case F64 -> "f64";
        };
    }

    /** The unsigned type of the same compute width, for wrapping arithmetic. */
    static String unsignedOf(DType t) {
        return t.bits() == 64 ? "u64" : "u32";
    }

    /** The mask of a {@code bits}-wide value as a {@code u32} literal. */
    static String mask32(int bits) {
        return bits >= 32 ? "0xFFFFFFFFu" : String.format("0x%Xu", (1L << bits) - 1);
    }

    /** A stored element {@code raw} as a compute value. */
    static String fromStorage(DType t, String raw) {
        return switch (t) {
            case F16 -> "jb_f16_value(u32(" + raw + "))";
            case BF16 -> "jb_bf16_value(u32(" + raw + "))";
            case F32, F64, U64, S64 -> raw;
            default -> compute(t) + "(" + raw + ")";
        };
    }

    /** A compute value of {@code t} as what is stored (F16/BF16: their bits; others unchanged, truncated by the store). */
    static String toStorageBits(DType t, String v) {
        return switch (t) {
            case F16 -> "jb_f16_bits(" + v + ")";
            case BF16 -> "jb_bf16_bits(" + v + ")";
            default -> v;
        };
    }

    /** {@code expr} brought to the range and precision of {@code t}, as if stored and loaded again. */
    static String wrap(DType t, String expr) {
        return switch (t) {
            case U8 -> "((" + expr + ") & 0xFFu)";
            case U16 -> "((" + expr + ") & 0xFFFFu)";
            case S8 -> "(i32(u32(" + expr + ") << 24u) >> 24u)";
            case S16 -> "(i32(u32(" + expr + ") << 16u) >> 16u)";
            case F16 -> "jb_f16_value(jb_f16_bits(" + expr + "))";
            case BF16 -> "jb_bf16_value(jb_bf16_bits(" + expr + "))";
            default -> expr;
        };
    }
}
