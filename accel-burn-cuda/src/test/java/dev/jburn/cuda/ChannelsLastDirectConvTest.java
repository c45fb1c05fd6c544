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
            for (long p : new long[] {1, 63, 64, 65, 1352, 16_900, 692_224, 10_000_019}) {
                long chunk = ChannelsLastDirectConv.chunk(t, p), chunks = ChannelsLastDirectConv.chunks(t, p);
                assertEquals(0, chunk % ChannelsLastDirectConv.tile(t), t + " " + p);
                assertTrue(chunks <= ChannelsLastDirectConv.MAX_CHUNKS && chunks * chunk >= p && (chunks - 1) * chunk < p, t + " " + p);
            }
        }
    }
}
