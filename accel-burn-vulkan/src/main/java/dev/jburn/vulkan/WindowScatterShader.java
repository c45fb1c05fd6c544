package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.kernels.WindowScatterPlan;

/**
 * Nx {@code window_scatter_max/min} (max-pool's gradient) in two shaders, the CUDA engine's design with
 * the cpu engine's results. {@link #select}: one invocation per window picks its element (padding
 * skipped; every NaN takes the lead, so the last NaN wins; of equal values the last in row-major
 * window order) and writes its offset in {@code x}, or -1 for a window of padding only.
 * {@link #scatter}: one invocation per output element adds to {@code init} the sources of the windows
 * that picked it, walking only the windows that can contain it, in row-major window order: no atomics,
 * and the cpu's order. Floats add in double and round once, as on the cpu (f32 adds in float only where
 * no two windows share an element, so at most one add each, which rounds the same); integers wrap.
 * Where no two windows share an element (max pooling's usual case) {@link #fill} and {@link #selectAdd}
 * replace both: every element gets {@code init}, then each window adds its source to the one element it
 * picked, with the same accumulator and so the same bits. The per-element scatter walks every window
 * position of every element with integer divisions (on an H100 the small CNN's pooling gradient at batch
 * 1024 took 2.0 of 7.1 ms a step); this pair reads and writes each element once.
 *
 * <p>Parameters: {@link WindowScatterPlan#params}.
 */
final class WindowScatterShader {
    private WindowScatterShader() {}

    static final int GROUP = 64;
    static final int MAX_RANK = WindowScatterPlan.MAX_RANK;
    private static final int HEADER = WindowScatterPlan.HEADER, PER_AXIS = WindowScatterPlan.PER_AXIS;

    /**
     * How the scatter adds sources of one dtype.
     *
     * @param storage    the buffers' element type (integers by width: wrapping sums have the same bits signed or not)
     * @param extensions what that type needs
     * @param type       the accumulator's type; {@code type(e)} widens a stored element
     * @param store      the stored value of accumulator {@code acc}
     */
    record Accumulator(String storage, String extensions, String type, String store) {}

    /**
     * The accumulator for sources of {@code t}, or {@code null} where this device has none: F32 needs f64
     * unless {@code oneAddEach} (no two windows share an element); F16 and BF16 are widened to F64 by the caller.
     */
    static Accumulator accumulator(DType t, VulkanFeatures f, boolean oneAddEach) {
        String ext8 = StridedCopyShader.storageExtension(1), ext16 = StridedCopyShader.storageExtension(2);
        String i64 = "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n";
        return switch (t) {
            case F32 -> f.float64() ? new Accumulator("float", "", "double", "float(acc)")
                    : oneAddEach ? new Accumulator("float", "", "float", "acc") : null;
            case F64 -> f.float64() ? new Accumulator("double", "", "double", "acc") : null;
            case S32, U32 -> new Accumulator("uint", "", "uint", "acc");
            case S64, U64 -> f.int64() ? new Accumulator("uint64_t", i64, "uint64_t", "acc") : null;
            case S16, U16 -> f.storage16() ? new Accumulator("uint16_t", ext16, "uint", "uint16_t(acc)") : null;
            case S8, U8 -> f.storage8() ? new Accumulator("uint8_t", ext8, "uint", "uint8_t(acc)") : null;
            // the cpu stores a nonzero wrapping sum as true
            case PRED -> f.storage8() ? new Accumulator("uint8_t", ext8, "uint", "uint8_t(acc != 0u ? 1u : 0u)") : null;
            case F16, BF16 -> null;
        };
    }

    /** Bindings: 0 x, 1 selected offsets (int, one per window), 2 parameters. */
    static String select(ArgReduceShader.Reader x, boolean floats, boolean max, int rank) {
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                %s// jburn window select (%s): the last of equal elements, the last NaN before any number, never padding
                layout(local_size_x = %d) in;
                layout(std430, binding = 0) readonly buffer X { %s x[]; };
                layout(std430, binding = 1) writeonly buffer Sel { int sel[]; };
                layout(std430, binding = 2) readonly buffer Params { uint p[]; };
                %s
                void main() {
                    RANK_DECL
                    uint windows = p[1], windowSize = p[3];
                    for (uint w = gl_GlobalInvocationID.x; w < windows; w += gl_NumWorkGroups.x * %du) {
                %s
                        sel[w] = best;
                    }
                }
                """.formatted(x.extensions(), max ? "max" : "min", GROUP, x.storage(), isNaN(x, floats), GROUP, pick(x, max)).replace("RANK_DECL", rankDecl(rank));
    }

    /**
     * The disjoint windows' scatter after {@link #fill}: each window picks its element as {@link #select} does and
     * stores {@code init} plus its source there. Bindings: 0 x, 1 source (one per window), 2 init (element 0),
     * 3 output, 4 parameters.
     */
    static String selectAdd(ArgReduceShader.Reader x, boolean xFloats, boolean max, Accumulator acc, boolean floats, int rank) {
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                %s%s// jburn window select-add (%s) into %s: disjoint windows, each adds its source to the element it picks
                layout(local_size_x = %d) in;
                layout(std430, binding = 0) readonly buffer X { %s x[]; };
                layout(std430, binding = 1) readonly buffer Src { %s s[]; };
                layout(std430, binding = 2) readonly buffer Init { %s init0[]; };
                layout(std430, binding = 3) buffer Out { %s o[]; };
                layout(std430, binding = 4) readonly buffer Params { uint p[]; };
                %s
                void main() {
                    RANK_DECL
                    uint windows = p[1], windowSize = p[3];
                    for (uint w = gl_GlobalInvocationID.x; w < windows; w += gl_NumWorkGroups.x * %du) {
                %s
                        if (best >= 0) {
                            %s%s acc = %s(init0[0]);
                            acc = acc + %s(s[w]);
                            o[uint(best)] = %s;
                        }
                    }
                }
                """.formatted(x.extensions(), acc.extensions(), max ? "max" : "min", acc.storage(), GROUP, x.storage(), acc.storage(),
                acc.storage(), acc.storage(), isNaN(x, xFloats), GROUP, pick(x, max), floats ? "precise " : "", acc.type(), acc.type(),
                acc.type(), acc.store()).replace("RANK_DECL", rankDecl(rank));
    }

    /** {@code init} in every element of the output. Bindings: 0 init (element 0), 1 output, 2 parameters. */
    static String fill(Accumulator acc) {
        return """
                #version 450
                %s// jburn window scatter fill into %s: init everywhere, before a disjoint select-add
                layout(local_size_x = %d) in;
                layout(std430, binding = 0) readonly buffer Init { %s init0[]; };
                layout(std430, binding = 1) writeonly buffer Out { %s o[]; };
                layout(std430, binding = 2) readonly buffer Params { uint p[]; };
                void main() {
                    uint n = p[2];
                    %s acc = %s(init0[0]);
                    for (uint q = gl_GlobalInvocationID.x; q < n; q += gl_NumWorkGroups.x * %du) o[q] = %s;
                }
                """.formatted(acc.extensions(), acc.storage(), GROUP, acc.storage(), acc.storage(), acc.type(), acc.type(), GROUP, acc.store());
    }

    /**
     * The rank as a constant of the shader (a pipeline per rank): the loops over axes unroll and their arrays stay in
     * registers; with the rank read from the parameters they were walked with indexed local memory.
     */
    static String rankDecl(int rank) { return "const int rank = " + rank + ";"; }

    private static String isNaN(ArgReduceShader.Reader x, boolean floats) {
        return "bool isNaN(%s v) { return %s; }".formatted(x.compare(), floats ? "isnan(v)" : "false");
    }

    /** Window {@code w}'s pick into {@code int best} (-1 where the window is padding only). */
    private static String pick(ArgReduceShader.Reader x, boolean max) {
        return """
                        int best = -1;
                        %s bv = %s(0);
                """.formatted(x.compare(), x.compare()) + windowPositions("""
                        uint i = uint(off);
                        %s v = %s;
                        if (best < 0 || isNaN(v) || (!isNaN(bv) && %s)) { best = off; bv = v; }
                        """.formatted(x.compare(), x.load(), max ? "v >= bv" : "v <= bv"));
    }

    /**
     * GLSL that walks window {@code w}'s positions in row-major window order over {@link WindowScatterPlan}'s words in
     * {@code p} (with {@code rank} and {@code windowSize} declared): for each position inside the input (padding is
     * skipped) {@code body} runs with {@code off}, its offset in {@code x}; {@code body} must not {@code continue}.
     * The position within the window is an odometer ({@code kc}, last axis fastest) rather than digits of a
     * counter: no integer division per position and axis, which GPUs run as long instruction sequences.
     */
    static String windowPositions(String body) {
        return """
                        int base[%1$d], kc[%1$d];
                        uint r = w;
                        [[unroll]] for (int d = rank - 1; d >= 0; d--) {
                            int a = %2$d + %3$d * d;
                            uint od = p[a + 1];
                            base[d] = int(r %% od) * int(p[a + 3]) - int(p[a + 5]);
                            kc[d] = 0;
                            r /= od;
                        }
                        for (uint k = 0u; k < windowSize; k++) {
                            int off = 0, stride = 1;
                            bool inside = true;
                            [[unroll]] for (int d = rank - 1; d >= 0; d--) {
                                int a = %2$d + %3$d * d;
                                int dim = int(p[a]);
                                int at = base[d] + kc[d] * int(p[a + 4]);
                                inside = inside && at >= 0 && at < dim;
                                off += at * stride;
                                stride *= dim;
                            }
                            if (inside) {
                %4$s            }
                            [[unroll]] for (int d = rank - 1; d >= 0; d--) {
                                if (++kc[d] < int(p[%2$d + %3$d * d + 2])) break;
                                kc[d] = 0;
                            }
                        }
                """.formatted(MAX_RANK, HEADER, PER_AXIS, body.indent(16).stripTrailing() + "\n");
    }

    /** Bindings: 0 source (one per window), 1 init (element 0), 2 selected offsets, 3 output, 4 parameters. */
    static String scatter(Accumulator acc, boolean floats, int rank) {
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                %s// jburn window scatter into %s: init plus the sources of the windows that selected each element, in window order
                layout(local_size_x = %d) in;
                layout(std430, binding = 0) readonly buffer Src { %s s[]; };
                layout(std430, binding = 1) readonly buffer Init { %s init0[]; };
                layout(std430, binding = 2) readonly buffer Sel { int sel[]; };
                layout(std430, binding = 3) writeonly buffer Out { %s o[]; };
                layout(std430, binding = 4) readonly buffer Params { uint p[]; };
                void main() {
                    RANK_DECL
                    uint n = p[2], windowSize = p[3];
                    for (uint q = gl_GlobalInvocationID.x; q < n; q += gl_NumWorkGroups.x * %du) {
                        int qc[%d];
                        uint r = q;
                        [[unroll]] for (int d = rank - 1; d >= 0; d--) { uint dim = p[%d + %d * d]; qc[d] = int(r %% dim); r /= dim; }
                        %s%s acc = %s(init0[0]);
                        // Window-position digits run backwards, so each axis's window index runs forwards: row-major window order.
                        for (uint t = 0u; t < windowSize; t++) {
                            uint rt = t;
                            int w = 0, stride = 1;
                            bool hit = true;
                            for (int d = rank - 1; d >= 0 && hit; d--) {
                                int a = %d + %d * d;
                                uint win = p[a + 2];
                                int kc = int(win - 1u - rt %% win);
                                rt /= win;
                                int outD = int(p[a + 1]), st = int(p[a + 3]);
                                int num = qc[d] + int(p[a + 5]) - kc * int(p[a + 4]);
                                hit = num >= 0 && num %% st == 0 && num / st < outD;
                                if (hit) w += (num / st) * stride;
                                stride *= outD;
                            }
                            if (hit && sel[w] == int(q)) acc = acc + %s(s[w]);
                        }
                        o[q] = %s;
                    }
                }
                """.formatted(acc.extensions(), acc.storage(), GROUP, acc.storage(), acc.storage(), acc.storage(), GROUP, MAX_RANK,
                HEADER, PER_AXIS, floats ? "precise " : "", acc.type(), acc.type(), HEADER, PER_AXIS, acc.type(), acc.store()).replace("RANK_DECL", rankDecl(rank));
    }
}
