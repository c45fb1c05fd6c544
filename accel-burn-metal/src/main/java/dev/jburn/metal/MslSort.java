package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.KernelSource;

import java.util.List;

/**
 * Stable sort and argsort along an axis in MSL, the cpu engine's algorithm: each line's elements
 * become 64-bit keys whose signed order is the wanted one (every NaN above +Inf and all NaNs equal,
 * both zeros equal; descending flips the key's bits, so equal keys keep their order either way), then
 * a bottom-up merge sort of keys and positions, and the sort writes the original element bits (NaN
 * payloads and the sign of zero survive). Keys come from the bits, so F16, BF16 and even F64 (whose
 * values MSL cannot compute with) sort here. One thread per line: the parallelism is the number of
 * lines.
 *
 * <p>Inputs: 0 x, 1 and 2 scratch (written: keys and positions, {@code 2 × size} each), 3 the parameter
 * words {@code [len, inner]}; the output is the sorted values or the positions in the index
 * type; {@code n} is the number of lines.
 */
final class MslSort {
    private MslSort() {}

    /** The storage x is read as: floats as their bits (unsigned), integers as themselves (so they widen with their sign). */
    private static DType readAs(DType t) {
        return t.isFloat() ? MslMovement.bits(t.byteSize()) : t;
    }

    /** The key of element {@code v} (a {@code readAs} value) as an MSL expression of type {@code long}. */
    private static String key(DType t) {
        return switch (t) {
            case F16 -> floatKey("ushort", "0x8000", "0x7fff", "0x7c00");
            case BF16 -> floatKey("ushort", "0x8000", "0x7fff", "0x7f80");
            case F32 -> floatKey("uint", "0x80000000u", "0x7fffffffu", "0x7f800000u");
            case F64 -> floatKey("ulong", "0x8000000000000000ul", "0x7ffffffffffffffful", "0x7ff0000000000000ul");
            case U64 -> "long(v ^ 0x8000000000000000ul)";
            default -> "long(v)";
        };
    }

    /** NaN: the largest key; otherwise ± the magnitude bits (both zeros give 0), which orders like the values. */
    private static String floatKey(String bits, String sign, String magnitude, String infinity) {
        return "((v & " + magnitude + ") > " + infinity + " ? 0x7fffffffffffffffl : (v & " + sign + ") != 0 ? -long(v & " + magnitude + ") : long(v & " + magnitude + "))";
    }

    /** The sort ({@code index == null}) or argsort into {@code index} of {@code t}'s lines. */
    static KernelSource sort(DType t, boolean descending, DType index) {
        DType in = readAs(t), out = index == null ? in : index;
        String entry = "jb_" + (index == null ? "sort" : "argsort_" + index.shortName()) + "_" + t.shortName() + (descending ? "_desc" : "");
        List<DType> ins = List.of(in, DType.S64, DType.S32, DType.S32);
        String write = index == null ? "out[base + k * inner] = in0[base + uint(p[k]) * inner];"
                : "out[base + k * inner] = " + Dialect.METAL.storageType(index) + "(p[k]);";
        // scratch is written: its buffers are declared without const, under the dialect's input names
        String code = (MslMovement.HEADER + "// jburn stable " + (index == null ? "sort" : "argsort") + " of " + t.shortName()
                + (descending ? ", descending" : "") + ": keys from the bits, a bottom-up merge sort per line\n"
                + Dialect.METAL.open(entry, ins, out)).replace("device const long* in1", "device long* in1").replace("device const int* in2", "device int* in2") + """
                    uint len = uint(in3[0]), inner = uint(in3[1]);
                    uint base = (i / inner) * len * inner + i %% inner;
                    uint size = n * len;
                    device long* keys = in1 + i * len;
                    device long* keys2 = in1 + size + i * len;
                    device int* pos = in2 + i * len;
                    device int* pos2 = in2 + size + i * len;
                    for (uint k = 0u; k < len; k++) {
                      %1$s v = in0[base + k * inner];
                      long key = %2$s;
                      keys[k] = %3$s;
                      pos[k] = int(k);
                    }
                    // runs of w merged into runs of 2w, from one half of the scratch to the other
                    for (uint w = 1u; w < len; w *= 2u) {
                      for (uint lo = 0u; lo < len; lo += 2u * w) {
                        uint mid = lo + w < len ? lo + w : len, hi = lo + 2u * w < len ? lo + 2u * w : len, a = lo, b = mid;
                        for (uint k = lo; k < hi; k++) {
                          bool left = a < mid && (b >= hi || keys[a] <= keys[b]);
                          keys2[k] = left ? keys[a] : keys[b];
                          pos2[k] = left ? pos[a] : pos[b];
                          if (left) a++; else b++;
                        }
                      }
                      device long* tk = keys; keys = keys2; keys2 = tk;
                      device int* tp = pos; pos = pos2; pos2 = tp;
                    }
                    device int* p = pos;
                    for (uint k = 0u; k < len; k++) {
                      %4$s
                    }
                """.formatted(Dialect.METAL.storageType(in), key(t), descending ? "~key" : "key", write) + Dialect.METAL.close();
        return new KernelSource(entry, code, ins, out);
    }
}
