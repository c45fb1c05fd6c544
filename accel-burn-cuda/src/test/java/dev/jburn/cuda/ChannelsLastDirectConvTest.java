package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which convs the direct kernels take ({@link ChannelsLastDirectConv#takes}) and how a kernel cotangent is cut into
 * chunks; the kernels themselves are compared bit for bit with their order on the host ({@link DirectConvHostCheck}, run by
 * {@link HostKernelTest}).
 */
class ChannelsLastDirectConvTest {
    @Test
    void theSmallCnnsFirstLayerRunsDirectAndItsSecondStaysAGemm() {
        // conv 1 at batch 1024: [1024·26·26, 9]·[9, 32] forward, [1024·26·26, 9]ᵀ·[1024·26·26, 32] kernel cotangent
        assertTrue(ChannelsLastDirectConv.takes(Kind.FORWARD, DType.F32, 1024L * 26 * 26, 9, 32));
        assertTrue(ChannelsLastDirectConv.takes(Kind.KERNEL_GRADIENT, DType.F32, 9, 1024L * 26 * 26, 32));
        assertTrue(ChannelsLastDirectConv.takes(Kind.FORWARD, DType.F64, 1024L * 26 * 26, 9, 32));
        // conv 2: depth 288
        assertFalse(ChannelsLastDirectConv.takes(Kind.FORWARD, DType.F32, 1024L * 11 * 11, 288, 64));
        assertFalse(ChannelsLastDirectConv.takes(Kind.KERNEL_GRADIENT, DType.F32, 288, 1024L * 11 * 11, 64));
        // half types keep the GEMM (it accumulates in f32); too many outputs for a thread's four
        assertFalse(ChannelsLastDirectConv.takes(Kind.FORWARD, DType.BF16, 1000, 9, 32));
        assertFalse(ChannelsLastDirectConv.takes(Kind.KERNEL_GRADIENT, DType.F32, 27, 1000, 64));
        assertFalse(ChannelsLastDirectConv.takes(Kind.FORWARD, DType.F32, 1000, 9, 257));
        // an output past 32-bit indices
        assertFalse(ChannelsLastDirectConv.takes(Kind.FORWARD, DType.F32, 1L << 26, 9, 64));
    }

    @Test
    void chunksAreWholeTilesCoveringEveryPosition() {
        for (DType t : new DType[] {DType.F32, DType.F64}) {
            for (int depth : new int[] {1, 3, 9, 27, 32}) {
                int tile = ChannelsLastDirectConv.gradientTile(t, depth);
                // the cols tile fits, and every lane count divides it (a lane's positions are a residue class of the chunk)
                assertTrue(tile * ((depth + 3) / 4 * 4) <= ChannelsLastDirectConv.colsCapacity(t) && tile % 64 == 0, t + " " + depth);
                for (long p : new long[] {1, 63, 64, 65, 1352, 16_900, 692_224, 10_000_019}) {
                    long chunk = ChannelsLastDirectConv.chunk(t, p, depth), chunks = ChannelsLastDirectConv.chunks(t, p, depth);
                    assertEquals(0, chunk % tile, t + " " + p);
                    assertTrue(chunks <= ChannelsLastDirectConv.MAX_CHUNKS && chunks * chunk >= p && (chunks - 1) * chunk < p, t + " " + p);
                }
            }
        }
        for (int outs = 1; outs <= ChannelsLastDirectConv.MAX_GRADIENT_COLUMNS; outs++) {
            int lanes = ChannelsLastDirectConv.gradientLanes(outs);
            assertTrue(lanes >= 1 && lanes <= 64 && Integer.bitCount(lanes) == 1 && lanes * outs <= ChannelsLastDirectConv.THREADS, "outs " + outs);
        }
    }

    @Test
    void forwardTilesFitTheSharedTile() {
        for (DType t : new DType[] {DType.F32, DType.F64}) {
            for (int depth = 1; depth <= ChannelsLastDirectConv.MAX_FORWARD_DEPTH; depth++) {
                for (int outs : new int[] {1, 3, 7, 32, 100, 256}) {
                    if (depth * outs > ChannelsLastDirectConv.MAX_FORWARD_WEIGHTS) continue;
                    int lanes = ChannelsLastDirectConv.forwardLanes(t, depth, outs);
                    assertTrue(lanes >= 1 && lanes * outs <= ChannelsLastDirectConv.THREADS, t + " " + depth + " " + outs);
                    assertTrue((long) depth * ChannelsLastDirectConv.forwardTile(t, depth, outs) <= ChannelsLastDirectConv.colsCapacity(t), t + " " + depth + " " + outs);
                }
            }
        }
    }
}
