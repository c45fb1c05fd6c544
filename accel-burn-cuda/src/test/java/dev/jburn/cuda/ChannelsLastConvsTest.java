package dev.jburn.cuda;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.conformance.ChannelsLastLayer;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

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
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU's channels-last conv groups ({@link ChannelsLastConvs}) without a GPU: a channels-last conv and its
 * two cotangents are traced (strides, padding, kernel dilation, 1-3 spatial axes), the rewrite must find the
 * forward conv, the input cotangent and the kernel cotangent, and each group's gather-and-GEMM
 * ({@link ChannelsLastConvs.Geometry}, {@link ChannelsLastIm2col#source}) computed in double on the host must equal
 * the cpu engine running the group's body; then the im2col kernel's CUDA source, compiled by g++, must gather
 * exactly what {@link ChannelsLastIm2col#source} says.
 */
class ChannelsLastConvsTest {
    static Tensor random(Random rnd, int... dims) {
        int n = 1;
        for (int d : dims) n *= d;
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) rnd.nextGaussian();
        return Tensor.of(v).reshape(Shape.of(dims));
    }

    record Group(Graph body, ChannelsLastConvs.Plan plan, List<Shape> inputs, Shape out) {}

    /** The rewritten groups of traced cases. */
    static List<Group> groups(Random rnd, int trials) {
        List<Group> groups = new ArrayList<>();
        for (int trial = 0; trial < trials; trial++) {
            int spatial = 1 + trial % 3;
            int[] in = new int[spatial], kernel = new int[spatial], strides = new int[spatial], dil = new int[spatial];
            int[][] pads = new int[spatial][];
            for (int a = 0; a < spatial; a++) {
                in[a] = 3 + rnd.nextInt(spatial == 3 ? 3 : 7);
                kernel[a] = 1 + rnd.nextInt(3);
                strides[a] = rnd.nextInt(3) == 0 ? 2 : 1;
                dil[a] = rnd.nextInt(4) == 0 ? 2 : 1;
                pads[a] = new int[] {rnd.nextInt(3), rnd.nextInt(3)};
            }
            groups.addAll(groups(new ChannelsLastLayer(in, 1 + rnd.nextInt(5), 1 + rnd.nextInt(6), kernel, strides, pads, dil), 1 + rnd.nextInt(3), rnd));
        }
        return groups;
    }

    /** The rewritten groups of case {@code c} traced at batch {@code batch}: its forward conv and both cotangents, or none for an empty conv. */
    static List<Group> groups(ChannelsLastLayer c, int batch, Random rnd) {
        int spatial = c.in().length;
        int[] xd = new int[c.rank()], kd = new int[c.rank()];
        xd[0] = batch;
        for (int a = 0; a < spatial; a++) {
            xd[a + 1] = c.in()[a];
            kd[a] = c.kernel()[a];
        }
        xd[c.rank() - 1] = c.channels();
        kd[c.rank() - 2] = c.channels();
        kd[c.rank() - 1] = c.filters();
        Tensor x = random(rnd, xd), k = random(rnd, kd);
        Tensor y;
        try {
            y = x.conv(k, ConvOptions.defaults().withStrides(c.strides()).withPadding(Padding.explicit(c.pads())).withKernelDilation(c.dilation())
                    .withKernelPermutation(ConvOptions.kernelSpatialFirst(c.rank())).withInputPermutation(ConvOptions.channelsLast(c.rank()))
                    .withOutputPermutation(ConvOptions.channelsLast(c.rank())));
        } catch (dev.jburn.JBurnException empty) {
            return List.of();
        }
        if (y.size() == 0) return List.of();
        CompiledFunction f = Jit.compileList(xs -> c.step(xs));
        f.apply(List.of(x, k, random(rnd, y.shape().dims())));
        ChannelsLastConvs cl = new ChannelsLastConvs(null);
        Graph rewritten = cl.rewrite(f.graph());
        List<Group> groups = new ArrayList<>();
        for (Node node : rewritten.nodes()) {
            if (!(node.prim() instanceof Prim.Fused fu)) continue;
            ChannelsLastConvs.Plan p = cl.plan(fu.body());
            if (p == null) continue;
            groups.add(new Group(fu.body(), p, node.inputs().stream().map(Value::shape).toList(), node.outputs().getFirst().shape()));
        }
        assertEquals(3, groups.size(), () -> "the forward conv and both cotangents run channels-last: " + rewritten);
        return groups;
    }

    @Test
    void gatherThenGemmEqualsTheGroupOnTheCpuEngine() {
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(7);
        int checked = 0;
        for (Group gr : groups(rnd, 18)) {
            List<float[]> values = new ArrayList<>();
            List<Operand> ops = new ArrayList<>();
            for (Shape s : gr.inputs()) {
                float[] v = random(rnd, s.dims()).toFloatArray();
                values.add(v);
                ops.add(new Operand(cpu.upload(MemorySegment.ofArray(v)), DType.F32, s));
            }
            Buffer eb = cpu.execute(gr.body(), ops).getFirst();
            float[] expected = new float[(int) gr.out().size()];
            cpu.download(eb, 0, MemorySegment.ofArray(expected));
            ChannelsLastConvs.Geometry geo = ChannelsLastConvs.Geometry.of(gr.plan().kind(), gr.inputs().get(0), gr.inputs().get(1),
                    gr.plan().spec(), gr.out());
            double[] got = gatherGemm(geo, values.get(0), values.get(1), gr.inputs().get(1), gr.plan().kind());
            assertEquals(expected.length, got.length, gr.plan().kind() + " " + gr.out());
            for (int i = 0; i < got.length; i++) {
                assertEquals(expected[i], got[i], 1e-4 * Math.max(1, Math.abs(got[i])), gr.plan().kind() + " " + gr.plan().spec() + " element " + i);
            }
            checked++;
        }
        assertTrue(checked >= 36, "groups checked: " + checked);
    }

    /** The group as {@link ChannelsLastConvs} runs it: cols from {@link ChannelsLastIm2col#source}, then the GEMM, in double. */
    private static double[] gatherGemm(ChannelsLastConvs.Geometry geo, float[] x, float[] other, Shape otherShape, dev.jburn.graph.ChannelsLastConvGroups.Kind kind) {
        long[] dims = ChannelsLastIm2col.viewDims(geo.in(), geo.aDims(), geo.bDims());
        int total = 1;
        for (long d : dims) total *= (int) d;
        double[] cols = new double[total];
        for (int i = 0; i < total; i++) {
            Long s = ChannelsLastIm2col.source(i, geo.in(), dims, geo.mulA(), geo.mulB(), geo.lo(), geo.interior());
            cols[i] = s == null ? 0 : x[(int) (long) s];
        }
        int rows = (int) geo.rows(), depth = (int) geo.depth(), columns = (int) geo.columns();
        double[] out = new double[rows * columns];
        if (kind == dev.jburn.graph.ChannelsLastConvGroups.Kind.FORWARD) {
            // the kernel [O, C, k...] read as [k..., C, O]
            int r = otherShape.rank() - 2, channels = otherShape.dim(1);
            int taps = depth / channels;
            for (int row = 0; row < rows; row++) {
                for (int o = 0; o < columns; o++) {
                    double acc = 0;
                    for (int d = 0; d < depth; d++) {
                        int tap = d / channels, c = d % channels;
                        acc += cols[row * depth + d] * other[(o * channels + c) * taps + tap];
                    }
                    out[row * columns + o] = acc;
                }
            }
            assertTrue(r >= 1);
        } else {
            for (int row = 0; row < rows; row++) {
                for (int o = 0; o < columns; o++) {
                    double acc = 0;
                    for (int d = 0; d < depth; d++) acc += cols[d * rows + row] * other[d * columns + o];
                    out[row * columns + o] = acc;
                }
            }
        }
        return out;
    }

    @Test
    void theIm2colKernelGathersWhatTheViewSays() throws Exception {
        Assumptions.assumeTrue(HostKernelTestSupport.hasCompiler(), "no g++ on this machine");
        Path dir = Files.createTempDirectory("jburn-im2col");
        try {
            Path src = dir.resolve("im2col.cpp"), lib = dir.resolve("libim2col.so");
            Files.writeString(src, """
                    struct jb_dim3 { unsigned x, y, z; };
                    static const jb_dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0}, gridDim = {1, 1, 1}, blockDim = {1, 1, 1};
                    #define __global__
                    #define __device__
                    #define __forceinline__ inline
                    static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
                    """ + ChannelsLastIm2col.SOURCE);
            Process p = new ProcessBuilder("g++", "-O1", "-std=c++17", "-shared", "-fPIC", "-w", "-o", lib.toString(), src.toString())
                    .redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), log);
            java.lang.foreign.StructLayout divs = java.lang.foreign.MemoryLayout.structLayout(java.lang.foreign.MemoryLayout.sequenceLayout(24, JAVA_INT));
            java.lang.foreign.StructLayout ints = java.lang.foreign.MemoryLayout.structLayout(java.lang.foreign.MemoryLayout.sequenceLayout(8, JAVA_INT));
            int checked = 0;
            try (Arena arena = Arena.ofConfined()) {
                SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
                for (Group gr : groups(new Random(11), 9)) {
                    MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find(ChannelsLastIm2col.entry(4, gr.plan().spec().spatialRank())).orElseThrow(),
                            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, divs, ints, ints, ints, ints, divs));
                    ChannelsLastConvs.Geometry geo = ChannelsLastConvs.Geometry.of(gr.plan().kind(), gr.inputs().get(0), gr.inputs().get(1),
                            gr.plan().spec(), gr.out());
                    long[] dims = ChannelsLastIm2col.viewDims(geo.in(), geo.aDims(), geo.bDims());
                    int n = 1, xs = 1;
                    for (long d : dims) n *= (int) d;
                    for (long d : geo.in()) xs *= (int) d;
                    float[] x = new float[xs];
                    for (int i = 0; i < xs; i++) x[i] = 1 + i;
                    float[] expected = new float[n];
                    for (int i = 0; i < n; i++) {
                        Long s = ChannelsLastIm2col.source(i, geo.in(), dims, geo.mulA(), geo.mulB(), geo.lo(), geo.interior());
                        expected[i] = s == null ? 0 : x[(int) (long) s];
                    }
                    long[] gaps = new long[geo.interior().length];
                    for (int j = 0; j < gaps.length; j++) gaps[j] = geo.interior()[j] + 1;
                    MemorySegment out = arena.allocate(JAVA_FLOAT, n);
                    try {
                        h.invoke(arena.allocateFrom(JAVA_FLOAT, x), out, n, gaps.length, arena.allocateFrom(JAVA_INT, FastDivisors.struct(dims)),
                                arena.allocateFrom(JAVA_INT, FastDivisors.ints(geo.in())), arena.allocateFrom(JAVA_INT, FastDivisors.ints(geo.mulA())),
                                arena.allocateFrom(JAVA_INT, FastDivisors.ints(geo.mulB())), arena.allocateFrom(JAVA_INT, FastDivisors.ints(geo.lo())),
                                arena.allocateFrom(JAVA_INT, FastDivisors.struct(gaps)));
                    } catch (Throwable t) {
                        throw new AssertionError(t);
                    }
                    assertArrayEquals(expected, out.toArray(JAVA_FLOAT), gr.plan().kind() + " " + gr.plan().spec());
                    checked++;
                }
            }
            assertTrue(checked >= 18, "groups checked: " + checked);
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
