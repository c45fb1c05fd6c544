package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ChannelsLastConvTest.bits;
import static dev.jburn.reference.ChannelsLastConvTest.floats;
import static dev.jburn.reference.ChannelsLastConvTest.values;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The forward conv's 12-row tiles over a {@link RunImage} ({@link ChannelsLastTile#run12}) keep the bits of the 6-row
 * tiles over the padded image, their twin and oracle: batch 1 and more, odd sizes (output rows that are not a multiple
 * of 12: tiles across the end of an output row, rows left for the 6-row tiles), padding (negative too; tap groups, one
 * with no taps), column strides, row dilations, 1-3 spatial axes (only two take the run image), channel counts that are
 * not a multiple of 16, partial column blocks, bias, ReLU with and without its mask, NaN and ±Inf in the input, the bias
 * and the kernel.
 */
class TwelveRowTilesTest {
    @Test
    void twelveRowTilesKeepTheForwardsBits() {
        Random rnd = new Random(50);
        Parallel two = new Parallel(2, 1);
        int twelve = 0;
        for (int trial = 0; trial < 80; trial++) {
            int sr = trial % 4 == 3 ? 1 + 2 * rnd.nextInt(2) : 2, n = trial % 5 == 0 ? 1 : 1 + rnd.nextInt(5);
            int c = new int[] {8, 13, 32, 40}[rnd.nextInt(4)], o = new int[] {1, 17, 32, 33, 64}[rnd.nextInt(5)];
            RandomChannelsLastConv cs = RandomChannelsLastConv.next(rnd, sr, n, c, o, 1, 17, 5);
            ConvSpec spec = cs.spec();
            int xc = cs.xCount(), kc = cs.kCount();
            MemorySegment x = floats(rnd, (int) xc), k = floats(rnd, (int) kc), bias = floats(rnd, o);
            if (trial % 4 == 1) { // non-finite values: in the input, the bias, and every other time the kernel
                x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), Float.NaN);
                x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), Float.POSITIVE_INFINITY);
                x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), Float.NEGATIVE_INFINITY);
                bias.setAtIndex(ValueLayout.JAVA_FLOAT, 0, o > 1 ? -0.0f : Float.NaN);
                if (trial % 8 == 1) k.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) kc), Float.NEGATIVE_INFINITY);
            }
            Shape xs = cs.x(), ks = cs.kernel();
            boolean withBias = rnd.nextBoolean(), relu = rnd.nextBoolean(), mask = relu && rnd.nextBoolean();
            MemorySegment b = withBias ? bias : null;
            List<Buffer> six = ChannelsLastConvF32.forward(x, xs, k, ks, b, relu, mask, spec, two, true, ChannelsLastConvF32.CHUNK_BYTES,
                    false, false);
            if (six == null) continue; // no output
            List<Buffer> twelveRows = ChannelsLastConvF32.forward(x, xs, k, ks, b, relu, mask, spec, two, true, ChannelsLastConvF32.CHUNK_BYTES,
                    false, true);
            String what = cs.describe() + ", bias " + withBias + ", relu " + relu + ", mask " + mask;
            assertEquals(six.size(), twelveRows.size(), what);
            for (int i = 0; i < six.size(); i++) {
                MemorySegment s = HostBuffer.of(six.get(i)), t = HostBuffer.of(twelveRows.get(i));
                if (mask && i == 0) assertArrayEquals(s.toArray(ValueLayout.JAVA_BYTE), t.toArray(ValueLayout.JAVA_BYTE), what + ": mask");
                else assertArrayEquals(bits(values(six.get(i))), bits(values(twelveRows.get(i))), what);
            }
            long positions = s(six.getLast()) / n / o / Float.BYTES;
            if (sr == 2 && spec.strides()[0] == 1 && spec.kernelDilation()[1] == 1 && positions >= 12) twelve++;
        }
        assertTrue(twelve >= 20, "enough cases have 12-row tiles, got " + twelve);
    }

    /**
     * The small CNN's conv 2 (32 → 64 channels, 13×13 → 11×11, valid), with bias and ReLU: 121 positions, ten tiles and a
     * row; the last rows of up to 12 images go through one tile (on one thread: two full batches and a partial one; on two,
     * the pool's chunks), with the mask kept too.
     */
    @Test
    void theCnnsSecondConvKeepsItsBits() {
        Random rnd = new Random(51);
        int n = 29;
        MemorySegment x = floats(rnd, n * 13 * 13 * 32), k = floats(rnd, 64 * 32 * 9), bias = floats(rnd, 64);
        ConvSpec valid = new ConvSpec(new int[] {1, 1}, new int[] {0, 0}, new int[] {0, 0}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        Shape xs = Shape.of(n, 13, 13, 32), ks = Shape.of(64, 32, 3, 3);
        for (Parallel p : new Parallel[] {new Parallel(1, 1), new Parallel(2, 1)}) {
            for (int mode = 0; mode < 3; mode++) {
                boolean relu = mode > 0, mask = mode == 2;
                List<Buffer> six = ChannelsLastConvF32.forward(x, xs, k, ks, bias, relu, mask, valid, p, true, ChannelsLastConvF32.CHUNK_BYTES,
                        false, false);
                List<Buffer> twelve = ChannelsLastConvF32.forward(x, xs, k, ks, bias, relu, mask, valid, p, true, ChannelsLastConvF32.CHUNK_BYTES,
                        false, true);
                String what = "threads " + p.threads() + ", relu " + relu + ", mask " + mask;
                assertArrayEquals(bits(values(six.getLast())), bits(values(twelve.getLast())), what);
                if (mask) assertArrayEquals(HostBuffer.of(six.getFirst()).toArray(ValueLayout.JAVA_BYTE),
                        HostBuffer.of(twelve.getFirst()).toArray(ValueLayout.JAVA_BYTE), what + ": mask");
            }
        }
    }

    private static long s(Buffer b) {
        return HostBuffer.of(b).byteSize();
    }
}
