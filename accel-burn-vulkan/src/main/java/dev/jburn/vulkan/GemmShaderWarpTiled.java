package dev.jburn.vulkan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The f32 GEMM with wide loads laid out by warps: a work group computes a {@code BM×BN} tile of C, each warp (32
 * invocations) a {@code WM×WN} part of it, walked as {@code WMI×WNI} sub-tiles in which each invocation holds a
 * {@code TM×TN} block of contiguous rows and columns. Per K index an invocation reads {@code WMI·TM/4 + WNI·TN/4}
 * {@code vec4}s of shared memory for {@code WMI·TM·WNI·TN} multiply-adds, and a warp's reads fall on few distinct
 * addresses (broadcasts). This is the layout of the fastest hand-written CUDA SGEMMs (Simon Boehm's "warptiling",
 * 94% of cuBLAS on an A6000), which {@link GemmShaderTiled}'s thread-grid layout (78% of cuBLAS on an H100) lacks.
 * Loads, shared layout and the K loop are {@link GemmShaderTiled}'s; the same products in the same ascending k
 * order, so the same results up to the compiler's fusing of multiply-adds.
 *
 * <p>A search space for {@code GemmTilingBench}, like {@link GemmShaderTiled.Tiling}; the engine's choice is in
 * {@link DotKernels#gemm}.
 */
final class GemmShaderWarpTiled {
    private GemmShaderWarpTiled() {}

    /**
     * One layout: a {@code bm×bn} tile, K steps of {@code bk}, warps of {@code wm×wn}, {@code wni} sub-tiles across
     * a warp's columns (the rows' count follows), {@code tm×tn} results of an invocation per sub-tile; with
     * {@code prefetch} the next step's loads are issued before this step's arithmetic (into registers, one shared
     * buffer, two barriers a step); with {@code doubleBuffer} too, and they go into a second shared buffer while the
     * first is read (one barrier a step, twice the shared memory). Written {@code w128x128/k16/64x64/n4/8x4[/p|/d]}.
     */
    record Tiling(int bm, int bn, int bk, int wm, int wn, int wni, int tm, int tn, boolean prefetch, boolean doubleBuffer) {
        int warps() { return (bm / wm) * (bn / wn); }

        int invocations() { return 32 * warps(); }

        /** Sub-tiles down a warp's rows. */
        int wmi() { return wm * wn / (32 * tm * tn * wni); }

        int subM() { return wm / wmi(); }

        int subN() { return wn / wni; }

        /** Invocations across a sub-tile's columns. */
        int across() { return subN() / tn; }

        int loadsA() { return bm * bk / 4 / invocations(); }

        int loadsB() { return bk * bn / 4 / invocations(); }

        /** Bytes of shared memory: A (rows padded by one {@code vec4}) and B tiles, twice with {@code doubleBuffer}. */
        int sharedBytes() { return (doubleBuffer ? 2 : 1) * 16 * bk * (bm / 4 + 1 + bn / 4); }

        /** Results an invocation holds. */
        int results() { return bm * bn / invocations(); }

        /** Why this layout cannot be generated, or null when it can. */
        String invalid() {
            if (Math.min(Math.min(bm, bn), Math.min(Math.min(bk, wm), Math.min(wn, Math.min(wni, Math.min(tm, tn))))) < 1) return "every size must be positive";
            if (tm % 4 != 0 || tn % 4 != 0 || bk % 4 != 0) return "tm, tn and the depth must be multiples of 4";
            if (bm % wm != 0 || bn % wn != 0) return "the warp's part must divide the tile";
            if (wn % wni != 0 || subN() % tn != 0 || 32 % across() != 0) return "a sub-tile's columns must split over a divisor of 32 invocations";
            if (wm * wn % (32 * tm * tn * wni) != 0 || wmi() < 1) return "a warp's part must be whole sub-tiles of 32 invocations' blocks";
            if (wm % wmi() != 0 || (32 / across()) * tm != subM()) return "a sub-tile's rows must be the invocations down it times tm";
            if (invocations() > 1024) return "more than 1024 invocations";
            if (bm * bk / 4 % invocations() != 0 || bk * bn / 4 % invocations() != 0 || loadsA() < 1 || loadsB() < 1) {
                return "the A and B tiles' vec4s must divide evenly among the invocations";
            }
            if (sharedBytes() > 48 * 1024) return "more than 48 KiB of shared memory (what NVIDIA gives a work group without opting in)";
            return null;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "w%dx%d/k%d/%dx%d/n%d/%dx%d%s", bm, bn, bk, wm, wn, wni, tm, tn,
                    doubleBuffer ? "/d" : prefetch ? "/p" : "");
        }

        private static final Pattern FORM = Pattern.compile("w(\\d+)x(\\d+)/k(\\d+)/(\\d+)x(\\d+)/n(\\d+)/(\\d+)x(\\d+)(/[pd])?");

        /** Reads {@code w128x128/k16/64x64/n4/8x4[/p|/d]}; {@link IllegalArgumentException} naming the problem otherwise. */
        static Tiling parse(String s) {
            Matcher m = FORM.matcher(s.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("warp-tiled GEMM '" + s + "': expected wBMxBN/kBK/WMxWN/nWNI/TMxTN[/p|/d], e.g. w128x128/k16/64x64/n4/8x4");
            }
            int[] v = new int[8];
            for (int i = 0; i < 8; i++) v[i] = Integer.parseInt(m.group(i + 1));
            String stages = m.group(9) == null ? "" : m.group(9);
            Tiling t = new Tiling(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], !stages.isEmpty(), stages.equals("/d"));
            String why = t.invalid();
            if (why != null) throw new IllegalArgumentException("warp-tiled GEMM " + t + ": " + why);
            return t;
        }

        static List<Tiling> parseAll(String s) {
            List<Tiling> out = new ArrayList<>();
            for (String part : s.split(",")) if (!part.isBlank()) out.add(parse(part));
            return out;
        }
    }

    /** {@link GemmShaderTiled#FETCH_AND_STASH} with {@code stash} writing into shared buffer {@code buf} of two. */
    private static final String DOUBLE_BUFFERED_STASH = GemmShaderTiled.FETCH_AND_STASH
            .replace("void stash(uint tid)", "void stash(uint buf, uint tid)")
            .replace("As[4u * aq + e]", "As[buf][4u * aq + e]")
            .replace("Bs[idx / NQ]", "Bs[buf][idx / NQ]");

    /**
     * The K loop over two shared buffers: the next step's loads are issued, this step's buffer is multiplied, the loads
     * go into the other buffer, one barrier. A buffer is written only after every invocation passed the barrier that
     * ended its last reading.
     */
    private static final String DOUBLE_BUFFERED_LOOP = """
                    fetch(0u, aOff, bOff, M, N, K, row0, col0, tid);
                    stash(0u, tid);
                    barrier();
                    uint buf = 0u;
                    for (uint k0 = 0u; k0 < K; k0 += BK) {
                        bool more = k0 + BK < K;
                        if (more) fetch(k0 + BK, aOff, bOff, M, N, K, row0, col0, tid);
                        multiply(buf);
                        if (more) stash(buf ^ 1u, tid);
                        barrier();
                        buf ^= 1u;
                    }
            """;

    /** Bindings: 0 A, 1 B, 2 C, 3 parameters {@code [batch, M, N, K]}; K and N multiples of 4. */
    static String source(Tiling t) {
        String why = t.invalid();
        if (why != null) throw new IllegalArgumentException("warp-tiled GEMM " + t + ": " + why);
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                // jburn warp-tiled GEMM, float, %1$s
                layout(local_size_x = %2$d) in;
                layout(std430, binding = 0) restrict readonly buffer A4 { vec4 a4[]; };
                layout(std430, binding = 1) restrict readonly buffer B4 { vec4 b4[]; };
                layout(std430, binding = 2) writeonly buffer C { float c[]; };
                layout(std430, binding = 2) writeonly buffer C4 { vec4 c4[]; };
                layout(std430, binding = 3) readonly buffer Params { uint p[]; };
                const uint NT = %2$du, BM = %3$du, BN = %4$du, BK = %5$du, WM = %6$du, WN = %7$du;
                const uint WMI = %8$du, WNI = %9$du, TMQ = %10$du, TNQ = %11$du, SMQ = %12$du, SNQ = %13$du, ACROSS = %14$du;
                const uint KQ = BK / 4u, NQ = BN / 4u, LA = %15$du, LB = %16$du;
                // A transposed (k major), rows padded by one vec4 against conflicts of the transposing stores.
                shared vec4 As[%19$sBK][BM / 4u + 1u];
                shared vec4 Bs[%19$sBK][NQ];
                vec4 pa[LA], pb[LB];
                // acc[4 * (sub-tile row * TMQ + q) + e][sub-tile column * TNQ + j]: row 4q + e of the block, columns 4j..4j+3.
                vec4 acc[WMI * TMQ * 4u][WNI * TNQ];
                uint rowQ, colQ;
                %17$s
                void multiply(%20$s) {
                    [[unroll]] for (uint kk = 0u; kk < BK; kk++) {
                        vec4 ra[WMI * TMQ], rb[WNI * TNQ];
                        [[unroll]] for (uint wm = 0u; wm < WMI; wm++) [[unroll]] for (uint q = 0u; q < TMQ; q++) ra[wm * TMQ + q] = As%21$s[kk][rowQ + wm * SMQ + q];
                        [[unroll]] for (uint wn = 0u; wn < WNI; wn++) [[unroll]] for (uint j = 0u; j < TNQ; j++) rb[wn * TNQ + j] = Bs%21$s[kk][colQ + wn * SNQ + j];
                        [[unroll]] for (uint r = 0u; r < WMI * TMQ; r++) {
                            [[unroll]] for (uint e = 0u; e < 4u; e++) {
                                [[unroll]] for (uint cq = 0u; cq < WNI * TNQ; cq++) acc[4u * r + e][cq] += ra[r][e] * rb[cq];
                            }
                        }
                    }
                }
                void main() {
                    uint M = p[1], N = p[2], K = p[3];
                    uint batch = gl_WorkGroupID.z;
                    uint tid = gl_LocalInvocationIndex, warp = tid >> 5, lane = tid & 31u;
                    uint warpRow = warp / (BN / WN), warpCol = warp %% (BN / WN);
                    rowQ = (warpRow * WM + (lane / ACROSS) * TMQ * 4u) >> 2;
                    colQ = (warpCol * WN + (lane %% ACROSS) * TNQ * 4u) >> 2;
                    uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
                    uint aOff = batch * M * K, bOff = batch * K * N, cOff = batch * M * N;
                    [[unroll]] for (uint i = 0u; i < WMI * TMQ * 4u; i++) [[unroll]] for (uint j = 0u; j < WNI * TNQ; j++) acc[i][j] = vec4(0.0);
                %18$s
                    [[unroll]] for (uint r = 0u; r < WMI * TMQ; r++) {
                        uint rq = rowQ + (r / TMQ) * SMQ + r %% TMQ;
                        [[unroll]] for (uint e = 0u; e < 4u; e++) {
                            uint row = row0 + 4u * rq + e;
                            if (row >= M) continue;
                            [[unroll]] for (uint cq = 0u; cq < WNI * TNQ; cq++) {
                                uint col = col0 + 4u * (colQ + (cq / TNQ) * SNQ + cq %% TNQ);
                                if (col + 3u < N) {
                                    c4[(cOff + row * N + col) >> 2] = acc[4u * r + e][cq];
                                } else {
                                    [[unroll]] for (uint f = 0u; f < 4u; f++) if (col + f < N) c[cOff + row * N + col + f] = acc[4u * r + e][cq][f];
                                }
                            }
                        }
                    }
                }
                """.formatted(t, t.invocations(), t.bm(), t.bn(), t.bk(), t.wm(), t.wn(), t.wmi(), t.wni(), t.tm() / 4, t.tn() / 4,
                t.subM() / 4, t.subN() / 4, t.across(), t.loadsA(), t.loadsB(), 
                t.doubleBuffer() ? DOUBLE_BUFFERED_STASH : GemmShaderTiled.FETCH_AND_STASH,
                t.doubleBuffer() ? DOUBLE_BUFFERED_LOOP : GemmShaderTiled.kLoop(t.prefetch()),
                t.doubleBuffer() ? "2u][" : "", t.doubleBuffer() ? "uint buf" : "", t.doubleBuffer() ? "[buf]" : "");
    }
}
