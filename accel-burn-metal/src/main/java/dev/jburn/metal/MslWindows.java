package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.KernelSource;
import dev.jburn.kernels.WindowScatterPlan;

import java.util.List;

/**
 * Nx {@code window_scatter_max/min} (max-pool's gradient) in two MSL kernels, the Vulkan engine's
 * {@code WindowScatterShader} in MSL with the same parameter words ({@link WindowScatterPlan}).
 * {@link #select}: one thread per window picks its element (padding skipped; every NaN takes the
 * lead, so the last NaN wins; of equal values the last in row-major window order) and writes its
 * offset in {@code x}, or -1 for a window of padding only. {@link #scatter}: one thread per output
 * element adds to {@code init} the sources of the windows that picked it, walking only the windows
 * that can contain it, in row-major window order: no atomics, and the cpu engine's order.
 */
final class MslWindows {
    private MslWindows() {}

    /**
     * How the scatter adds sources of one dtype: integers by width in unsigned types (wrapping sums
     * have the same bits signed or not), PRED stored as whether the wrapping sum is nonzero (the cpu
     * engine's), F32 in float. The cpu engine adds floats in double and rounds once: a float sum is the
     * same only when each element gets at most one add ({@code oneAddEach}); MSL has no double, so
     * overlapping F32 windows fall back. F16/BF16 are widened to F32 by the caller (one add in float,
     * then the cast back, rounds as once in double: float's 24 bits are at least 2p+2 for their p).
     *
     * @param storage the buffers' element type
     * @param type    the accumulator's type
     * @param store   the stored value of accumulator {@code acc}
     */
    record Accumulator(DType storage, String type, String store) {}

    /** The accumulator for sources of {@code t}, or {@code null} where none reproduces the cpu engine's sum. */
    static Accumulator accumulator(DType t, boolean oneAddEach) {
        return switch (t) {
            case F32 -> oneAddEach ? new Accumulator(DType.F32, "float", "acc") : null;
            case S32, U32 -> new Accumulator(DType.U32, "uint", "acc");
            case S64, U64 -> new Accumulator(DType.U64, "ulong", "acc");
            case S16, U16 -> new Accumulator(DType.U16, "uint", "ushort(acc)");
            case S8, U8 -> new Accumulator(DType.U8, "uint", "uchar(acc)");
            case PRED -> new Accumulator(DType.U8, "uint", "uchar(acc != 0u ? 1u : 0u)");
            case F16, BF16, F64 -> null;
        };
    }

    /** Per axis {@code d} of the parameter words: the index of its first word. */
    private static String axisWord(String d) { return WindowScatterPlan.HEADER + " + " + WindowScatterPlan.PER_AXIS + " * " + d; }

    /**
     * The select kernel over {@code x} of type {@code in} (one {@link MslIndexing#compareType}): inputs
     * 0 x, 1 the parameter words; output one S32 offset per window; {@code n} is the window count.
     */
    static KernelSource select(DType in, boolean max) {
        String ct = MslIndexing.compareType(in);
        String entry = "jb_window_select_" + (max ? "max_" : "min_") + in.shortName();
        List<DType> ins = List.of(in, DType.S32);
        String code = MslMovement.HEADER + "// jburn window select (" + (max ? "max" : "min")
                + "): the last of equal elements, the last NaN before any number, never padding\n"
                + Dialect.METAL.open(entry, ins, DType.S32) + """
                    device const int* p = in1;
                    int rank = p[0];
                    uint windowSize = uint(p[3]);
                    int oc[%1$d];
                    uint r = i;
                    for (int d = rank - 1; d >= 0; d--) { uint od = uint(p[%2$s + 1]); oc[d] = int(r %% od); r /= od; }
                    int best = -1;
                    %3$s bv = %3$s(0);
                    for (uint k = 0u; k < windowSize; k++) {
                      uint rk = k;
                      int off = 0, stride = 1;
                      bool inside = true;
                      for (int d = rank - 1; d >= 0 && inside; d--) {
                        int a = %2$s;
                        uint win = uint(p[a + 2]);
                        int kc = int(rk %% win);
                        rk /= win;
                        int dim = p[a];
                        int at = oc[d] * p[a + 3] + kc * p[a + 4] - p[a + 5];
                        inside = at >= 0 && at < dim;
                        off += at * stride;
                        stride *= dim;
                      }
                      if (!inside) continue;
                      %3$s v = %3$s(in0[off]);
                      bool vNan = %4$s, bNan = %5$s;
                      if (best < 0 || vNan || (!bNan && %6$s)) { best = off; bv = v; }
                    }
                    out[i] = best;
                """.formatted(WindowScatterPlan.MAX_RANK, axisWord("d"), ct, in.isFloat() ? "isnan(v)" : "false",
                in.isFloat() ? "isnan(bv)" : "false", max ? "v >= bv" : "v <= bv") + Dialect.METAL.close();
        return new KernelSource(entry, code, ins, DType.S32);
    }

    /**
     * The scatter kernel: inputs 0 the sources (one per window), 1 init (element 0), 2 the selected
     * offsets, 3 the parameter words; output {@code x}'s shape; {@code n} is {@code x}'s size.
     */
    static KernelSource scatter(Accumulator acc) {
        DType s = acc.storage();
        String entry = "jb_window_scatter_" + s.shortName();
        List<DType> ins = List.of(s, s, DType.S32, DType.S32);
        String code = MslMovement.HEADER + "// jburn window scatter: init plus the sources of the windows that selected each element, in window order\n"
                + Dialect.METAL.open(entry, ins, s) + """
                    device const int* p = in3;
                    int rank = p[0];
                    uint windowSize = uint(p[3]);
                    int qc[%1$d];
                    uint r = i;
                    for (int d = rank - 1; d >= 0; d--) { uint dim = uint(p[%2$s]); qc[d] = int(r %% dim); r /= dim; }
                    %3$s acc = %3$s(in1[0]);
                    // Window-position digits run backwards, so each axis's window index runs forwards: row-major window order.
                    for (uint t = 0u; t < windowSize; t++) {
                      uint rt = t;
                      int w = 0, stride = 1;
                      bool hit = true;
                      for (int d = rank - 1; d >= 0 && hit; d--) {
                        int a = %2$s;
                        uint win = uint(p[a + 2]);
                        int kc = int(win - 1u - rt %% win);
                        rt /= win;
                        int outD = p[a + 1], st = p[a + 3];
                        int num = qc[d] + p[a + 5] - kc * p[a + 4];
                        hit = num >= 0 && num %% st == 0 && num / st < outD;
                        if (hit) w += (num / st) * stride;
                        stride *= outD;
                      }
                      if (hit && in2[w] == int(i)) acc = acc + %3$s(in0[w]);
                    }
                    out[i] = %4$s;
                """.formatted(WindowScatterPlan.MAX_RANK, axisWord("d"), acc.type(), acc.store()) + Dialect.METAL.close();
        return new KernelSource(entry, code, ins, s);
    }
}
