package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.conformance.ChannelsLastLayer;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GEMM-then-col2im path of {@link ChannelsLastConvs} without a GPU: traced stride-1 convs' FORWARD groups
 * (forward convs and input cotangents, 1-3 spatial axes, several paddings) computed as the engine would
 * ({@link ChannelsLastCol2im.Geometry}, {@link ChannelsLastCol2im#sources}), in double on the host, must equal the
 * cpu engine running the group's body; and {@link ChannelsLastConvs#path} must send the small CNN's conv2 input
 * cotangent there and every other group of the step to im2col. The kernel itself is checked by {@link Col2imHostCheck}.
 */
class ChannelsLastCol2imTest {
    private static ChannelsLastLayer stride1(int[] in, int channels, int filters, int[] kernel, int[][] pads) {
        int[] ones = new int[in.length];
        java.util.Arrays.fill(ones, 1);
        return new ChannelsLastLayer(in, channels, filters, kernel, ones, pads, ones);
    }

    /** The small CNN's conv2: 13×13×32 → 11×11×64, 3×3, valid. */
    private static final ChannelsLastLayer CONV2 = stride1(new int[] {13, 13}, 32, 64, new int[] {3, 3}, new int[][] {{0, 0}, {0, 0}});

    @Test
    void gemmThenCol2imEqualsTheGroupOnTheCpuEngine() {
        List<ChannelsLastLayer> cases = List.of(
                stride1(new int[] {7}, 3, 5, new int[] {3}, new int[][] {{0, 0}}),
                stride1(new int[] {4}, 1, 2, new int[] {4}, new int[][] {{0, 0}}),
                stride1(new int[] {6}, 5, 3, new int[] {2}, new int[][] {{1, 0}}),
                stride1(new int[] {6, 5}, 3, 7, new int[] {3, 3}, new int[][] {{0, 0}, {0, 0}}),
                stride1(new int[] {5, 4}, 2, 3, new int[] {2, 3}, new int[][] {{1, 1}, {0, 2}}),
                stride1(new int[] {4, 4}, 7, 1, new int[] {1, 1}, new int[][] {{0, 0}, {0, 0}}),
                stride1(new int[] {4, 3, 3}, 3, 2, new int[] {2, 2, 3}, new int[][] {{0, 0}, {0, 0}, {0, 0}}),
                stride1(new int[] {3, 4, 3}, 2, 5, new int[] {3, 1, 2}, new int[][] {{1, 0}, {0, 0}, {1, 1}}));
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(23);
        int checked = 0, full = 0;
        for (int i = 0; i < cases.size(); i++) {
            for (ChannelsLastConvsTest.Group gr : ChannelsLastConvsTest.groups(cases.get(i), 1 + i % 3, rnd)) {
                if (gr.plan().kind() != Kind.FORWARD) continue;
                Shape xs = gr.inputs().get(0), ws = gr.inputs().get(1);
                ChannelsLastCol2im.Geometry geo = ChannelsLastCol2im.Geometry.of(xs, ws, gr.plan().spec(), gr.out());
                assertNotNull(geo, "a stride-1 undilated conv has a col2im geometry: " + gr.plan().spec());
                float[] x = ChannelsLastConvsTest.random(rnd, xs.dims()).toFloatArray(), w = ChannelsLastConvsTest.random(rnd, ws.dims()).toFloatArray();
                Buffer eb = cpu.execute(gr.body(), List.of(new Operand(cpu.upload(MemorySegment.ofArray(x)), DType.F32, xs),
                        new Operand(cpu.upload(MemorySegment.ofArray(w)), DType.F32, ws))).getFirst();
                float[] expected = new float[(int) gr.out().size()];
                cpu.download(eb, 0, MemorySegment.ofArray(expected));
                double[] got = gemmCol2im(geo, x, w, ws);
                for (int e = 0; e < got.length; e++) {
                    assertEquals(expected[e], got[e], 1e-4 * Math.max(1, Math.abs(got[e])), gr.plan().spec() + " element " + e);
                }
                checked++;
                if (ChannelsLastCol2im.takes(xs, ws, gr.plan().spec(), DType.F32, gr.out())) full++;
            }
        }
        // each case's forward conv and input cotangent; the valid convs' cotangents (full padding) are the engine's case
        assertEquals(2 * cases.size(), checked);
        assertTrue(full >= 5, "input cotangents the engine sends to col2im: " + full);
    }

    /** {@code cols = x as [N·Πu, Ci] · w as [Ci, Πk·Co]}, then each output sums its {@link ChannelsLastCol2im#sources}, in double. */
    private static double[] gemmCol2im(ChannelsLastCol2im.Geometry geo, float[] x, float[] w, Shape ws) {
        int rows = (int) geo.rows(), columns = (int) geo.columns(), ci = ws.dim(1), co = ws.dim(0), taps = columns / co;
        double[] cols = new double[rows * columns];
        for (int row = 0; row < rows; row++) {
            for (int tap = 0; tap < taps; tap++) {
                for (int o = 0; o < co; o++) {
                    double acc = 0;
                    // w [Co, Ci, k...]
                    for (int c = 0; c < ci; c++) acc += (double) x[row * ci + c] * w[(o * ci + c) * taps + tap];
                    cols[row * columns + tap * co + o] = acc;
                }
            }
        }
        double[] out = new double[(int) geo.size()];
        for (int i = 0; i < out.length; i++) {
            for (long s : ChannelsLastCol2im.sources(i, geo)) out[i] += cols[(int) s];
        }
        return out;
    }

    @Test
    void theCnnConv2InputCotangentTakesCol2imAndNothingElseDoes() {
        List<String> paths = new ArrayList<>();
        for (ChannelsLastConvsTest.Group gr : ChannelsLastConvsTest.groups(CONV2, 2, new Random(5))) {
            Shape x = gr.inputs().get(0), w = gr.inputs().get(1);
            paths.add(gr.plan().kind() + " " + x + " " + ChannelsLastConvs.path(gr.plan(), x, w, gr.out(), true));
            assertEquals(ChannelsLastConvs.Path.IM2COL, ChannelsLastConvs.path(gr.plan(), x, w, gr.out(), false), "-Djburn.cuda.col2im=false");
            if (gr.plan().kind() == Kind.FORWARD && x.dim(3) == 64) {
                // the same group at the CNN's batch sizes
                for (int batch : new int[] {128, 1024}) {
                    assertEquals(ChannelsLastConvs.Path.COL2IM, ChannelsLastConvs.path(gr.plan(), Shape.of(batch, 11, 11, 64), w,
                            Shape.of(batch, 13, 13, 32), true), "batch " + batch);
                }
                assertEquals(ChannelsLastConvs.Path.IM2COL, ChannelsLastConvs.path(new ChannelsLastConvs.Plan(Kind.FORWARD, gr.plan().spec(), DType.F16),
                        x, w, gr.out(), true), "f16: the kernel adds in f32 and f64 only");
            }
        }
        assertEquals(List.of("FORWARD [2, 11, 11, 64] COL2IM", "FORWARD [2, 13, 13, 32] IM2COL", "KERNEL_GRADIENT [2, 13, 13, 32] IM2COL"),
                paths.stream().sorted().toList());

        // input cotangents of strided, padded (not full) and dilated stride-1 convs stay on im2col
        Random rnd = new Random(6);
        int[][] valid = {{0, 0}, {0, 0}};
        for (ChannelsLastLayer c : List.of(
                new ChannelsLastLayer(new int[] {9, 9}, 4, 8, new int[] {3, 3}, new int[] {2, 2}, valid, new int[] {1, 1}),
                stride1(new int[] {9, 9}, 4, 8, new int[] {3, 3}, new int[][] {{1, 1}, {1, 1}}),
                new ChannelsLastLayer(new int[] {9, 9}, 4, 8, new int[] {3, 3}, new int[] {1, 1}, valid, new int[] {2, 2}))) {
            for (ChannelsLastConvsTest.Group gr : ChannelsLastConvsTest.groups(c, 2, rnd)) {
                assertEquals(ChannelsLastConvs.Path.IM2COL, ChannelsLastConvs.path(gr.plan(), gr.inputs().get(0), gr.inputs().get(1), gr.out(), true),
                        gr.plan().kind() + " " + gr.plan().spec());
            }
        }
        // a full-padded conv whose col2im matrix is the larger one (few inputs channels, many outputs): 3·3·8 > 5·5·1
        ConvSpec full = new ConvSpec(new int[] {1, 1}, new int[] {2, 2}, new int[] {2, 2}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        assertEquals(ChannelsLastConvs.Path.IM2COL, ChannelsLastConvs.path(new ChannelsLastConvs.Plan(Kind.FORWARD, full, DType.F32),
                Shape.of(4, 3, 3, 1), Shape.of(8, 1, 3, 3), Shape.of(4, 5, 5, 8), true));
    }
}
