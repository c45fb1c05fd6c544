package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.conformance.ChannelsLastLayer;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@link HostKernelCheck}'s family for the direct conv kernels ({@link ChannelsLastDirectConv}): compiled as host C++
 * with one block of 256 fibers ({@link CudaHostShim#BLOCK}: the shared tiles and barriers run as on the GPU, the one
 * block walking every tile and chunk), run on the forward convs and kernel cotangents the engine sends there, traced
 * from channels-last layers (1 to 3 spatial axes, strides, padding, dilation; the small CNN's conv 1, and a batch
 * whose kernel cotangent has more chunks than the sum's 256 threads), on values of mixed magnitudes, and compared bit
 * for bit in F32 and F64 with {@link ChannelsLastDirectConv#forwardAt} and {@link ChannelsLastDirectConv#kernelGradientAt}
 * (the kernels' summation order over {@link ChannelsLastIm2col#source}'s gather).
 */
final class DirectConvHostCheck {
    private DirectConvHostCheck() {}

    /** The deepest forward conv checked (deeper than the engine's default: the forward kernel's depth chunks). */
    static final int FORWARD_DEPTH = 512;

    /** The groups the direct kernels take, traced from random layers and from the fixed ones below. */
    static List<ChannelsLastConvsTest.Group> cases() {
        Random rnd = new Random(29);
        List<ChannelsLastConvsTest.Group> all = new ArrayList<>();
        int[][] none = {{0, 0}, {0, 0}};
        // the small CNN's conv 1 at batch 2, and at batch 25: 16,900 positions, 265 chunks (more than the sum's threads)
        all.addAll(ChannelsLastConvsTest.groups(new ChannelsLastLayer(new int[] {28, 28}, 1, 32, new int[] {3, 3}, new int[] {1, 1}, none,
                new int[] {1, 1}), 2, rnd));
        all.addAll(ChannelsLastConvsTest.groups(new ChannelsLastLayer(new int[] {28, 28}, 1, 32, new int[] {3, 3}, new int[] {1, 1}, none,
                new int[] {1, 1}), 25, rnd));
        // an RGB first layer, stride 2, same padding; 7 filters (lanes that leave threads idle)
        all.addAll(ChannelsLastConvsTest.groups(new ChannelsLastLayer(new int[] {9, 10}, 3, 7, new int[] {3, 3}, new int[] {2, 2},
                new int[][] {{1, 1}, {1, 1}}, new int[] {1, 1}), 3, rnd));
        // 256 filters (one lane), and 100 filters of a 1-D conv (two lanes, 56 idle threads)
        all.addAll(ChannelsLastConvsTest.groups(new ChannelsLastLayer(new int[] {6, 5}, 1, 256, new int[] {2, 2}, new int[] {1, 1}, none,
                new int[] {1, 1}), 2, rnd));
        all.addAll(ChannelsLastConvsTest.groups(new ChannelsLastLayer(new int[] {40}, 2, 100, new int[] {5}, new int[] {1},
                new int[][] {{2, 1}}, new int[] {2}), 3, rnd));
        // the small CNN's conv 2 (depth 288 in 9 chunks of 32: deeper forward convs, as DirectConvBench times them), and
        // 256 filters of depth 36 (chunks of 8)
        all.addAll(ChannelsLastConvsTest.groups(new ChannelsLastLayer(new int[] {13, 13}, 32, 64, new int[] {3, 3}, new int[] {1, 1}, none,
                new int[] {1, 1}), 2, rnd));
        all.addAll(ChannelsLastConvsTest.groups(new ChannelsLastLayer(new int[] {5, 4}, 4, 256, new int[] {3, 3}, new int[] {1, 1},
                new int[][] {{1, 1}, {1, 1}}, new int[] {1, 1}), 2, rnd));
        all.addAll(ChannelsLastConvsTest.groups(rnd, 24)); // random layers: 1-3 spatial axes, strides, padding, dilation
        List<ChannelsLastConvsTest.Group> taken = new ArrayList<>();
        for (ChannelsLastConvsTest.Group g : all) {
            ChannelsLastConvs.Geometry geo = geometry(g);
            if (g.plan().kind() != Kind.FORWARD && g.plan().kind() != Kind.KERNEL_GRADIENT) continue;
            if (ChannelsLastIm2col.viewDims(geo.in(), geo.aDims(), geo.bDims()) == null) continue;
            if (ChannelsLastDirectConv.takes(g.plan().kind(), DType.F32, geo.rows(), geo.depth(), geo.columns(), FORWARD_DEPTH)) taken.add(g);
        }
        return taken;
    }

    static ChannelsLastConvs.Geometry geometry(ChannelsLastConvsTest.Group g) {
        return ChannelsLastConvs.Geometry.of(g.plan().kind(), g.inputs().get(0), g.inputs().get(1), g.plan().spec(), g.out());
    }

    /** Runs every case in F32 and F64; returns the mismatching cases, or -1 when the host compiler failed. */
    static int check(String cxx) throws Exception {
        List<ChannelsLastConvsTest.Group> cases = cases();
        if (cases.size() < 40) throw new IllegalStateException("only " + cases.size() + " direct conv cases: the generators changed?");
        StringBuilder cpp = new StringBuilder(CudaHostShim.BLOCK).append(ChannelsLastDirectConv.SOURCE);
        for (String t : List.of("f32", "f64")) {
            String T = t.equals("f32") ? "float" : "double";
            for (int r = 1; r <= ChannelsLastIm2col.MAX_SPATIAL; r++) {
                String s = t + "_" + r;
                cpp.append("extern \"C\" void run_conv_").append(s).append("(const ").append(T).append("* x, const ").append(T).append("* w, ")
                        .append(T).append("* out, unsigned p, int depth, int outs, int lanes, int dk, const JbDivs* dims, const JbInts* in, const JbInts* ma, ")
                        .append("const JbInts* mb, const JbInts* lo, const JbDivs* gap) {\n  jb_run_group([&](unsigned) { jburn_direct_conv_").append(s)
                        .append("(x, w, out, p, depth, outs, lanes, dk, *dims, *in, *ma, *mb, *lo, *gap); });\n}\n");
                cpp.append("extern \"C\" void run_kgrad_").append(s).append("(const ").append(T).append("* x, const ").append(T).append("* g, ")
                        .append(T).append("* out, unsigned p, int depth, int outs, unsigned chunk, unsigned chunks, int tile, int lanes, const JbDivs* dims, ")
                        .append("const JbInts* in, const JbInts* ma, const JbInts* mb, const JbInts* lo, const JbDivs* gap) {\n")
                        .append("  std::vector<").append(T).append("> partial((size_t)chunks * depth * outs);\n")
                        .append("  jb_run_group([&](unsigned) { jburn_direct_kgrad_").append(s)
                        .append("(x, g, partial.data(), p, depth, outs, chunk, chunks, tile, lanes, *dims, *in, *ma, *mb, *lo, *gap); });\n")
                        .append("  jb_run_group([&](unsigned) { jburn_direct_ksum_").append(t).append("(partial.data(), out, depth * outs, chunks); });\n}\n");
            }
        }
        Path dir = HostKernelCheck.tempDir("jburn-hostd");
        Path src = dir.resolve("direct.cpp"), lib = dir.resolve("libdirect.so");
        Files.writeString(src, cpp);
        if (!HostKernelCheck.compile(cxx, src, lib, "direct convs", "-std=c++17", "-ffp-contract=off")) return -1;
        Random rnd = new Random(43);
        int mismatches = 0, run = 0;
        FunctionDescriptor conv = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
                ADDRESS, ADDRESS, ADDRESS);
        FunctionDescriptor kgrad = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS,
                ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            for (ChannelsLastConvsTest.Group c : cases) {
                ChannelsLastConvs.Geometry geo = geometry(c);
                long[] dims = ChannelsLastIm2col.viewDims(geo.in(), geo.aDims(), geo.bDims());
                long[] gaps = new long[geo.interior().length];
                for (int j = 0; j < gaps.length; j++) gaps[j] = geo.interior()[j] + 1;
                int r = geo.aDims().length;
                boolean forward = c.plan().kind() == Kind.FORWARD;
                int depth = (int) (forward ? geo.depth() : geo.rows()), outs = (int) geo.columns();
                long positions = forward ? geo.rows() : geo.depth();
                int xs = (int) ChannelsLastConvs.prod(geo.in()), os = (int) (forward ? depth * outs : positions * outs);
                for (DType t : List.of(DType.F32, DType.F64)) {
                    boolean f32 = t == DType.F32;
                    double[] x = mixed(rnd, xs, f32), other = mixed(rnd, os, f32);
                    int n = (int) (forward ? positions * outs : (long) depth * outs);
                    MemorySegment out = arena.allocate((long) n * t.byteSize(), 8);
                    String s = (f32 ? "f32_" : "f64_") + r;
                    MemorySegment dimsS = arena.allocateFrom(JAVA_INT, FastDivisors.struct(dims)), inS = arena.allocateFrom(JAVA_INT, FastDivisors.ints(geo.in())),
                            ma = arena.allocateFrom(JAVA_INT, FastDivisors.ints(geo.mulA())), mb = arena.allocateFrom(JAVA_INT, FastDivisors.ints(geo.mulB())),
                            lo = arena.allocateFrom(JAVA_INT, FastDivisors.ints(geo.lo())), gap = arena.allocateFrom(JAVA_INT, FastDivisors.struct(gaps));
                    try {
                        if (forward) {
                            MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find("run_conv_" + s).orElseThrow(), conv);
                            h.invokeWithArguments(segment(arena, x, f32), segment(arena, other, f32), out, (int) positions, depth, outs,
                                    ChannelsLastDirectConv.forwardLanes(t, depth, outs), ChannelsLastDirectConv.forwardChunk(depth, outs), dimsS, inS, ma, mb, lo, gap);
                        } else {
                            MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find("run_kgrad_" + s).orElseThrow(), kgrad);
                            h.invokeWithArguments(segment(arena, x, f32), segment(arena, other, f32), out, (int) positions, depth, outs,
                                    (int) ChannelsLastDirectConv.chunk(t, positions, depth), (int) ChannelsLastDirectConv.chunks(t, positions, depth),
                                    ChannelsLastDirectConv.gradientTile(t, depth), ChannelsLastDirectConv.gradientLanes(outs), dimsS, inS, ma, mb, lo, gap);
                        }
                    } catch (Throwable e) {
                        throw new IllegalStateException(e);
                    }
                    java.util.function.LongToDoubleFunction col = i -> {
                        Long from = ChannelsLastIm2col.source(i, geo.in(), dims, geo.mulA(), geo.mulB(), geo.lo(), geo.interior());
                        return from == null ? 0 : x[(int) (long) from];
                    };
                    int bad = 0, first = -1;
                    for (int i = 0; i < n; i++) {
                        double want = forward ? ChannelsLastDirectConv.forwardAt(col, other, i / outs, i % outs, depth, outs, f32)
                                : ChannelsLastDirectConv.kernelGradientAt(col, other, positions, depth, outs, i, f32);
                        boolean same = f32 ? Float.floatToRawIntBits((float) want) == Float.floatToRawIntBits(out.getAtIndex(JAVA_FLOAT, i))
                                : Double.doubleToRawLongBits(want) == Double.doubleToRawLongBits(out.getAtIndex(JAVA_DOUBLE, i));
                        if (!same && bad++ == 0) first = i;
                    }
                    run++;
                    if (bad > 0) {
                        mismatches++;
                        System.out.println("MISMATCH direct conv " + c.plan().kind() + ":" + t.shortName() + " " + c.inputs() + " -> " + c.out() + " "
                                + c.plan().spec() + ": " + bad + " of " + n + " elements, first " + first);
                    }
                }
            }
        }
        System.out.println(run + " direct conv cases run on the host, " + mismatches + " mismatches");
        return mismatches;
    }

    /** Values from 1e-3 to 1e3 in magnitude, either sign, exact in {@code f32} where asked (so both sides see the same inputs). */
    private static double[] mixed(Random rnd, int n, boolean f32) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            double d = (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(7) - 3);
            v[i] = f32 ? (float) d : d;
        }
        return v;
    }

    private static MemorySegment segment(Arena arena, double[] v, boolean f32) {
        if (!f32) return arena.allocateFrom(JAVA_DOUBLE, v);
        MemorySegment s = arena.allocate(JAVA_FLOAT, v.length);
        for (int i = 0; i < v.length; i++) s.setAtIndex(JAVA_FLOAT, i, (float) v[i]);
        return s;
    }
}
