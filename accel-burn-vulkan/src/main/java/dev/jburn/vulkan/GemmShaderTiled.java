package dev.jburn.vulkan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The f32 GEMM with wide loads ({@link GemmShader#wideLoads}: K and N multiples of 4) generated for a
 * {@link Tiling}: a {@code TX×TY} work group computes a {@code TM·TY × TN·TX} tile of C, each invocation
 * {@code TM×TN} results as blocks of 4×4 strided by {@code 4·TY} rows and {@code 4·TX} columns (so a
 * quarter-warp's {@code vec4} reads of the B tile cover contiguous shared words and its reads of the A
 * tile are broadcasts), stepping through K {@code BK} at a time. {@code GemmShader}'s f32 kernel is the
 * tiling {@code 16x16/8x8/k16}. With {@code prefetch} each step's global loads are issued into registers
 * before the arithmetic of the step before them, so their latency hides behind it (one shared buffer,
 * two barriers a step); without, they go straight to shared memory. Full {@code vec4} stores of C where
 * the four columns are inside it. The same products in the same (ascending k) order as {@code GemmShader}:
 * any tiling gives the same results up to the compiler's fusing of multiply-adds.
 *
 * <p>The tilings are a search space for the device at hand ({@code GemmTilingBench} times them); the one the
 * engine runs is chosen in {@link DotKernels#gemm}.
 */
final class GemmShaderTiled {
    private GemmShaderTiled() {}

    /**
     * One tiling: {@code threadsX × threadsY} invocations, {@code rows × cols} results each, K steps of
     * {@code depth}, {@code prefetch} as above. {@code warpLanes}: each run of 32 invocations (an NVIDIA warp) takes
     * an 8×4 block of the {@code threadsX × threadsY} grid instead of two rows of 16, so it reads 8 distinct
     * {@code vec4}s of the A tile and 16 of the B tile a step instead of 4 and 32 (fewer shared-memory bytes).
     * {@code group} &gt; 0: work groups walk C's tiles in bands of {@code group} tile rows, column by column, so the
     * groups running at once share their A rows and B columns in the L2 cache. Written {@code 16x16/8x8/k16}, then
     * {@code /p} for prefetch, {@code /w} for warp lanes, {@code /g8} for bands of 8.
     */
    record Tiling(int threadsX, int threadsY, int rows, int cols, int depth, boolean prefetch, boolean warpLanes, int group) {
        Tiling(int threadsX, int threadsY, int rows, int cols, int depth, boolean prefetch) {
            this(threadsX, threadsY, rows, cols, depth, prefetch, false, 0);
        }

        /** Rows of C per work group. */
        int tileM() { return rows * threadsY; }

        /** Columns of C per work group. */
        int tileN() { return cols * threadsX; }

        int invocations() { return threadsX * threadsY; }

        /** {@code vec4} global loads of A per invocation and K step. */
        int loadsA() { return tileM() * depth / 4 / invocations(); }

        /** {@code vec4} global loads of B per invocation and K step. */
        int loadsB() { return tileN() * depth / 4 / invocations(); }

        /** Bytes of shared memory: A (rows padded by one {@code vec4}) and B tiles. */
        int sharedBytes() { return 16 * depth * (tileM() / 4 + 1 + tileN() / 4); }

        /** Why this tiling cannot be generated, or null when it can. */
        String invalid() {
            if (threadsX < 1 || threadsY < 1 || rows < 4 || cols < 4 || depth < 4) return "every size must be positive, blocks at least 4";
            if (rows % 4 != 0 || cols % 4 != 0 || depth % 4 != 0) return "rows, columns and depth must be multiples of 4";
            if (invocations() > 1024) return "more than 1024 invocations";
            if (tileM() * depth / 4 % invocations() != 0 || tileN() * depth / 4 % invocations() != 0) {
                return "the A and B tiles' vec4s must divide evenly among the invocations";
            }
            if (warpLanes && (threadsX % 8 != 0 || threadsY % 4 != 0 || invocations() % 32 != 0)) {
                return "warp lanes need threadsX a multiple of 8 and threadsY of 4";
            }
            if (group < 0) return "the band of tile rows must not be negative";
            if (sharedBytes() > 48 * 1024) return "more than 48 KiB of shared memory (what NVIDIA gives a work group without opting in)";
            return null;
        }

        /** The {@code 16x16/8x8/k16[/p]} form {@link #parse} reads. */
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%dx%d/%dx%d/k%d%s%s%s", threadsX, threadsY, rows, cols, depth, prefetch ? "/p" : "",
                    warpLanes ? "/w" : "", group > 0 ? "/g" + group : "");
        }

        private static final Pattern FORM = Pattern.compile("(\\d+)x(\\d+)/(\\d+)x(\\d+)/k(\\d+)(/p)?(/w)?(?:/g(\\d+))?");

        /** Reads {@code 16x16/8x8/k16[/p]}; {@link IllegalArgumentException} naming the problem otherwise. */
        static Tiling parse(String s) {
            Matcher m = FORM.matcher(s.trim());
            if (!m.matches()) throw new IllegalArgumentException("GEMM tiling '" + s + "': expected threadsXxthreadsY/rowsxcols/kDEPTH[/p][/w][/gN], e.g. 16x16/8x8/k16");
            Tiling t = new Tiling(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), m.group(6) != null, m.group(7) != null,
                    m.group(8) == null ? 0 : Integer.parseInt(m.group(8)));
            String why = t.invalid();
            if (why != null) throw new IllegalArgumentException("GEMM tiling " + t + ": " + why);
            return t;
        }

        /** Several tilings separated by commas. */
        static List<Tiling> parseAll(String s) {
            List<Tiling> out = new ArrayList<>();
            for (String part : s.split(",")) if (!part.isBlank()) out.add(parse(part));
            return out;
        }
    }

    /** The tiling of {@link GemmShader}'s f32 kernel. */
    static final Tiling CLASSIC = new Tiling(16, 16, 8, 8, 16, false);

    /** This invocation's {@code tid} (its index in the work group, for the loads) and {@code tx, ty} (its place in the grid of results). */
    private static String lanes(Tiling t) {
        if (!t.warpLanes()) return """
                    uint tid = gl_LocalInvocationIndex;
                    tx = gl_LocalInvocationID.x;
                    ty = gl_LocalInvocationID.y;""";
        return """
                    uint tid = gl_LocalInvocationIndex;
                    uint lane = tid & 31u, warp = tid >> 5;
                    tx = (warp % (TX / 8u)) * 8u + (lane & 7u);
                    ty = (warp / (TX / 8u)) * 4u + (lane >> 3);""";
    }

    /** The first row and column of the tile of C this work group computes. */
    private static String tiles(Tiling t) {
        if (t.group() == 0) return "uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;";
        return """
                    uint groupsX = gl_NumWorkGroups.x, groupsY = gl_NumWorkGroups.y;
                    uint linear = gl_WorkGroupID.y * groupsX + gl_WorkGroupID.x;
                    uint perBand = %1$du * groupsX, band = linear / perBand, firstRow = band * %1$du;
                    uint bandRows = min(groupsY - firstRow, %1$du), inBand = linear %% perBand;
                    uint row0 = (firstRow + inBand %% bandRows) * BM, col0 = (inBand / bandRows) * BN;""".formatted(t.group());
    }

    /**
     * {@code fetch}: this invocation's share of a K step's A and B tiles into registers {@code pa, pb} as {@code vec4}s
     * (zero outside the operands); {@code stash}: them into shared memory, A transposed. Needs the constants
     * {@code NT, KQ, NQ, LA, LB}, the arrays {@code pa[LA], pb[LB]}, the bindings {@code a4, b4} and the shared
     * {@code As[BK][BM / 4 + 1], Bs[BK][NQ]}. Shared by the tiled and warp-tiled kernels.
     */
    static final String FETCH_AND_STASH = """
                void fetch(uint k0, uint aOff, uint bOff, uint M, uint N, uint K, uint row0, uint col0, uint tid) {
                    [[unroll]] for (uint l = 0u; l < LA; l++) {
                        uint idx = tid + l * NT;
                        uint ar = idx / KQ, aq = idx % KQ;
                        uint gr = row0 + ar, gk = k0 + 4u * aq;
                        pa[l] = (gr < M && gk < K) ? a4[(aOff + gr * K + gk) >> 2] : vec4(0.0);
                    }
                    [[unroll]] for (uint l = 0u; l < LB; l++) {
                        uint idx = tid + l * NT;
                        uint bk = idx / NQ, bq = idx % NQ;
                        uint gk = k0 + bk, gc = col0 + 4u * bq;
                        pb[l] = (gk < K && gc < N) ? b4[(bOff + gk * N + gc) >> 2] : vec4(0.0);
                    }
                }
                void stash(uint tid) {
                    [[unroll]] for (uint l = 0u; l < LA; l++) {
                        uint idx = tid + l * NT;
                        uint ar = idx / KQ, aq = idx % KQ;
                        [[unroll]] for (uint e = 0u; e < 4u; e++) As[4u * aq + e][ar >> 2][ar & 3u] = pa[l][e];
                    }
                    [[unroll]] for (uint l = 0u; l < LB; l++) {
                        uint idx = tid + l * NT;
                        Bs[idx / NQ][idx % NQ] = pb[l];
                    }
                }
            """;

    /**
     * The loop over K steps calling {@code fetch}, {@code stash} and {@code multiply()}: with {@code prefetch} the next
     * step's loads are issued before this step's arithmetic (registers, one shared buffer, two barriers a step).
     */
    static String kLoop(boolean prefetch) {
        return prefetch ? """
                    fetch(0u, aOff, bOff, M, N, K, row0, col0, tid);
                    for (uint k0 = 0u; k0 < K; k0 += BK) {
                        stash(tid);
                        barrier();
                        if (k0 + BK < K) fetch(k0 + BK, aOff, bOff, M, N, K, row0, col0, tid);
                        multiply();
                        barrier();
                    }
            """ : """
                    for (uint k0 = 0u; k0 < K; k0 += BK) {
                        fetch(k0, aOff, bOff, M, N, K, row0, col0, tid);
                        stash(tid);
                        barrier();
                        multiply();
                        barrier();
                    }
            """;
    }

    /** Bindings: 0 A, 1 B, 2 C, 3 parameters {@code [batch, M, N, K]}; K and N multiples of 4. */
    static String source(Tiling t) {
        String why = t.invalid();
        if (why != null) throw new IllegalArgumentException("GEMM tiling " + t + ": " + why);
        int rb = t.rows() / 4, cb = t.cols() / 4, kq = t.depth() / 4, nq = t.tileN() / 4;
        String fetch = FETCH_AND_STASH;
        String loop = kLoop(t.prefetch());
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                // jburn tiled GEMM, float, tiling %1$s: %2$dx%3$d per invocation as %4$dx%5$d blocks of 4x4, vec4 loads and stores
                layout(local_size_x = %6$d, local_size_y = %7$d) in;
                layout(std430, binding = 0) readonly buffer A4 { vec4 a4[]; };
                layout(std430, binding = 1) readonly buffer B4 { vec4 b4[]; };
                layout(std430, binding = 2) writeonly buffer C { float c[]; };
                layout(std430, binding = 2) writeonly buffer C4 { vec4 c4[]; };
                layout(std430, binding = 3) readonly buffer Params { uint p[]; };
                const uint TX = %6$du, TY = %7$du, NT = %8$du, BM = %9$du, BN = %10$du, BK = %11$du;
                const uint KQ = %12$du, NQ = %13$du, LA = %14$du, LB = %15$du, RB = %4$du, CB = %5$du;
                // A transposed (k major), rows padded by one vec4 against conflicts of the transposing stores.
                shared vec4 As[BK][BM / 4u + 1u];
                shared vec4 Bs[BK][NQ];
                vec4 pa[LA], pb[LB];
                vec4 acc[RB * 4u][CB];
                uint tx, ty;
                %16$s
                void multiply() {
                    [[unroll]] for (uint kk = 0u; kk < BK; kk++) {
                        vec4 av[RB], bv[CB];
                        [[unroll]] for (uint i = 0u; i < RB; i++) av[i] = As[kk][ty + TY * i];
                        [[unroll]] for (uint j = 0u; j < CB; j++) bv[j] = Bs[kk][tx + TX * j];
                        [[unroll]] for (uint i = 0u; i < RB; i++) {
                            [[unroll]] for (uint e = 0u; e < 4u; e++) {
                                [[unroll]] for (uint j = 0u; j < CB; j++) acc[4u * i + e][j] += av[i][e] * bv[j];
                            }
                        }
                    }
                }
                void main() {
                    uint M = p[1], N = p[2], K = p[3];
                    uint batch = gl_WorkGroupID.z;
                %18$s
                    %19$s
                    uint aOff = batch * M * K, bOff = batch * K * N, cOff = batch * M * N;
                    [[unroll]] for (uint i = 0u; i < RB * 4u; i++) [[unroll]] for (uint j = 0u; j < CB; j++) acc[i][j] = vec4(0.0);
                %17$s
                    [[unroll]] for (uint i = 0u; i < RB; i++) {
                        [[unroll]] for (uint e = 0u; e < 4u; e++) {
                            uint r = row0 + 4u * (ty + TY * i) + e;
                            if (r >= M) continue;
                            [[unroll]] for (uint j = 0u; j < CB; j++) {
                                uint col = col0 + 4u * (tx + TX * j);
                                if (col + 3u < N) {
                                    c4[(cOff + r * N + col) >> 2] = acc[4u * i + e][j];
                                } else {
                                    [[unroll]] for (uint f = 0u; f < 4u; f++) if (col + f < N) c[cOff + r * N + col + f] = acc[4u * i + e][j][f];
                                }
                            }
                        }
                    }
                }
                """.formatted(t, t.rows(), t.cols(), rb, cb, t.threadsX(), t.threadsY(), t.invocations(), t.tileM(), t.tileN(),
                t.depth(), kq, nq, t.loadsA(), t.loadsB(), fetch, loop, lanes(t), tiles(t));
    }
}
