package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.spi.HostMemory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The reuse of freed host blocks ({@link BlockPool}) and their alignment: a block is lent again only
 * once nothing references it, its old contents never show in a new tensor, the budget counts only
 * lent blocks, and a collection gives the kept ones back.
 */
class HostBlockPoolTest {
    private static final int N = 1000; // a size no other test of this class uses for its probes

    @Test
    void aSharedBufferIsNotLentAgainWhileAViewHoldsIt() {
        Tensor a = Tensor.full(Shape.of(N), DType.F32, 7.0);
        Tensor view = a.reshape(10, 100);
        a.close(); // the view still holds the buffer: it must not go to the pool
        List<Tensor> others = new ArrayList<>();
        for (int i = 0; i < 8; i++) others.add(Tensor.full(Shape.of(N), DType.F32, -1.0));
        float[] seen = view.toFloatArray();
        float[] sevens = new float[N];
        Arrays.fill(sevens, 7f);
        assertArrayEquals(sevens, seen, "another tensor of the same size got the view's memory");
        others.forEach(Tensor::close);
        view.close();
    }

    @Test
    void aReusedBlockShowsNoStaleValues() {
        float[] zeros = new float[N];
        for (int round = 0; round < 4; round++) {
            Tensor.full(Shape.of(N), DType.F32, Float.NaN).close(); // the next block of this size holds NaNs
            try (Tensor z = Tensor.zeros(Shape.of(N), DType.F32)) {
                assertArrayEquals(zeros, z.toFloatArray(), "zeros() on a reused block");
            }
            Tensor.full(Shape.of(N), DType.F32, Float.NaN).close();
            try (Tensor x = Tensor.iota(Shape.of(N), DType.F32); Tensor y = x.add(x); Tensor s = x.multiply(2)) {
                float[] want = new float[N];
                for (int i = 0; i < N; i++) want[i] = 2f * i;
                assertArrayEquals(want, y.toFloatArray(), "an op's output on a reused block");
                assertArrayEquals(want, s.toFloatArray());
            }
        }
    }

    @Test
    void reuseGivesTheSameBlockAndTheBudgetCountsOnlyLentBlocks() {
        long bytes = 4L * 1237; // unusual size: no other live tensor competes for its blocks
        HostBuffer first = HostBuffer.uninitialized(bytes);
        long address = first.segment().address();
        long lent = HostMemory.live();
        first.release();
        assertTrue(HostMemory.live() <= lent - bytes, "a pooled block is not live");
        HostBuffer second = HostBuffer.uninitialized(bytes);
        assertEquals(address, second.segment().address(), "the freed block is lent again");
        assertThrows(dev.jburn.JBurnException.class, first::segment, "the old loan stays closed");
        assertFalse(first.isAlive());
        assertTrue(second.isAlive());
        second.release();
    }

    @Test
    void aCollectionEmptiesThePool() {
        for (int i = 0; i < 16; i++) HostBuffer.uninitialized(4L * (2000 + i)).release();
        assertTrue(BlockPool.heldBytes() > 0);
        HostMemory.collect();
        assertEquals(0, BlockPool.heldBytes(), "kept blocks go back to the C allocator on every collection");
    }

    @Test
    void forgottenTensorsAreStillFreed() {
        HostMemory.collect();
        long before = HostMemory.live();
        for (int i = 0; i < 200; i++) Tensor.full(Shape.of(N), DType.F32, 1.0).add(1.0); // never closed
        HostMemory.collect();
        // other tests' garbage may be freed meanwhile, so live bytes are bounded above only
        assertTrue(HostMemory.live() <= before + 4L * N, "forgotten tensors left " + (HostMemory.live() - before) + " bytes live");
    }

    @Test
    void blocksAreCacheLineAligned() {
        for (long bytes : new long[] {1, 3, 64, 100, 4096, 16384, 1 << 20, 5L << 20}) {
            HostBuffer z = HostBuffer.zeroed(bytes), u = HostBuffer.uninitialized(bytes);
            assertEquals(0, z.segment().address() % NativeMemory.ALIGN, "zeroed " + bytes);
            assertEquals(0, u.segment().address() % NativeMemory.ALIGN, "uninitialized " + bytes);
            assertEquals(bytes, z.byteSize());
            z.release();
            u.release();
        }
    }

    @Test
    void thePoolIsBounded() {
        long bytes = 3L << 20; // just under the size from which NativeMemory keeps blocks itself
        List<HostBuffer> many = new ArrayList<>();
        for (int i = 0; i < 40; i++) many.add(HostBuffer.uninitialized(bytes));
        many.forEach(HostBuffer::release);
        assertTrue(BlockPool.heldBytes() <= BlockPool.MAX_BYTES, "kept " + BlockPool.heldBytes());
        HostMemory.collect();
    }
}
