package dev.jburn.kernels;

import dev.jburn.DType;

/**
 * Nx cast semantics in kernel code (see {@code DType} and {@code HostElements}): floats to
 * integers truncate, NaN gives 0, ±Inf the type's extremes, other out-of-range values keep their
 * low bits; integers wrap; every conversion to a narrower float rounds once to nearest even (wider
 * sources go through a round-to-odd intermediate so the final rounding is the only one).
 * {@link Types#wrap} finishes each cast by bringing the value to the target's width or precision.
 */
final class Casts {
    private Casts() {}

    static String spell(Dialect d, DeviceFeatures f, DType from, DType to, String x) {
        String zeroFrom = Types.compute(from) + "(0)";
        if (to == DType.PRED) return "(" + x + " != " + zeroFrom + " ? 1u : 0u)";
        if (!to.isFloat()) {
            if (!from.isFloat()) return Types.compute(to) + "(" + x + ")";
            String extremes = "(" + x + " > " + zeroFrom + " ? " + extreme(d, to, true) + " : " + extreme(d, to, false) + ")";
            String bits = to.bits() == 64 ? "jb_to_bits64(" + x + ")" : "jb_to_bits32(" + x + ")";
            if (to.bits() == 64 && !f.int64()) throw new Emitter.Unsupported("casts to " + to.shortName() + " need 64-bit integers");
            return "(isnan(" + x + ") ? " + Types.compute(to) + "(0) : (isinf(" + x + ") ? " + extremes + " : " + Types.compute(to) + "(" + bits + ")))";
        }
        if (from.isFloat()) {
            if (to == DType.F64) return "f64(" + x + ")";
            if (from == DType.F64) return to == DType.F32 ? "f32(" + x + ")" : "jb_f64_to_f32_odd(" + x + ")";
            return x; // F16, BF16, F32 share f32 compute; the wrap rounds to the target
        }
        boolean u = !from.isSigned();
        if (to == DType.F64) return "f64(" + x + ")";
        if (from.bits() == 64) {
            return (u ? "jb_u64_to_f32(" : "jb_i64_to_f32(") + x + ", " + (to == DType.F32 ? "false" : "true") + ")";
        }
        if (from.bits() <= 16 || to == DType.F32 || to == DType.F16) return "f32(" + x + ")";
        return (u ? "jb_u32_to_f32_odd(" : "jb_i32_to_f32_odd(") + x + ")";
    }

    /** The largest or smallest value of integer type {@code t}, as a compute-type literal. */
    private static String extreme(Dialect d, DType t, boolean max) {
        long v = max ? t.maxLong() : t.minLong();
        return switch (t) {
            case U64, S64 -> d.int64Literal(v, t == DType.U64);
            case S8, S16, S32 -> String.format("i32(0x%08xu)", (int) v);
            default -> "u32(" + Long.toUnsignedString(v & 0xFFFF_FFFFL) + "u)";
        };
    }
}
