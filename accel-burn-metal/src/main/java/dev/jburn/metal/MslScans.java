package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.KernelSource;
import dev.jburn.op.CumulativeOp;

import java.util.List;

/**
 * Inclusive scans (cumulative sum, product, max, min) in MSL, one thread per line along the axis,
 * walking it in order: each line's values are the cpu engine's sequential scan, bit for bit (a
 * parallel scan would reorder float sums). The parallelism is the number of lines: a scan of one
 * long vector runs on one thread. F32 adds and multiplies in float, rounded every step, as the cpu
 * engine does for F32, F16 and BF16 (the caller widens F16/BF16 to F32 and rounds the results back);
 * max and min follow Java's {@code Math.max}/{@code min} (a NaN sticks, {@code -0 < +0}); integers
 * add and multiply in the unsigned type of their width, so they wrap as two's complement does.
 *
 * <p>Inputs: 0 x, 1 the parameter words {@code [n, inner]} (the axis length and the stride of one step
 * along it); the output has x's shape; {@code n} (the kernel's count) is the number of lines.
 */
final class MslScans {
    private MslScans() {}

    /** Whether a scan of {@code t} has a kernel: F32 and the integers (F16/BF16 through F32; PRED and F64 never). */
    static boolean supports(DType t) {
        return t == DType.F32 || (t.isInteger() && t != DType.PRED);
    }

    static KernelSource scan(CumulativeOp op, DType t, boolean reverse) {
        boolean arithmetic = op == CumulativeOp.CUMULATIVE_SUM || op == CumulativeOp.CUMULATIVE_PRODUCT;
        // sums and products of integers on their unsigned bits; max and min in the type itself
        DType storage = arithmetic && t.isInteger() ? MslMovement.bits(t.byteSize()) : t;
        String ct = t == DType.F32 ? "float" : arithmetic ? (t.byteSize() == 8 ? "ulong" : "uint") : MslIndexing.compareType(t);
        String step = switch (op) {
            case CUMULATIVE_SUM -> "acc = acc + v;";
            case CUMULATIVE_PRODUCT -> "acc = acc * v;";
            case CUMULATIVE_MAX -> t == DType.F32
                    ? "if (!isnan(acc)) { if (isnan(v) || (acc == 0.0f && v == 0.0f ? as_type<uint>(acc) == 0x80000000u : v > acc)) acc = v; }"
                    : "if (v > acc) acc = v;";
            case CUMULATIVE_MIN -> t == DType.F32
                    ? "if (!isnan(acc)) { if (isnan(v) || (acc == 0.0f && v == 0.0f ? as_type<uint>(v) == 0x80000000u : v < acc)) acc = v; }"
                    : "if (v < acc) acc = v;";
        };
        String entry = "jb_" + op.opName() + "_" + t.shortName() + (reverse ? "_reverse" : "");
        String st = Dialect.METAL.storageType(storage);
        List<DType> in = List.of(storage, DType.S32);
        String code = MslMovement.HEADER + "// jburn " + op.opName() + " of " + t.shortName() + (reverse ? ", from the end" : "")
                + ": one thread per line, in order\n" + Dialect.METAL.open(entry, in, storage) + """
                    uint len = uint(in1[0]), inner = uint(in1[1]);
                    uint base = (i / inner) * len * inner + i %% inner;
                    %1$s acc = %1$s(0);
                    for (uint s = 0u; s < len; s++) {
                      uint at = base + (%2$s) * inner;
                      %1$s v = %1$s(in0[at]);
                      if (s == 0u) acc = v; else { %3$s }
                      out[at] = %4$s(acc);
                    }
                """.formatted(ct, reverse ? "len - 1u - s" : "s", step, st) + Dialect.METAL.close();
        return new KernelSource(entry, code, in, storage);
    }
}
