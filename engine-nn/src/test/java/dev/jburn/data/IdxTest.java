package dev.jburn.data;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

import static dev.jburn.data.IdxBytes.gzip;
import static dev.jburn.data.IdxBytes.idx;
import static dev.jburn.data.IdxBytes.write;
import static org.junit.jupiter.api.Assertions.*;

/** The IDX reader: every type, plain and gzip, and every fault named with its file. */
class IdxTest {
    @TempDir Path dir;

    @Test
    void readsEveryTypeBigEndian() {
        Tensor u8 = Idx.read(write(dir, "u8", idx(0x08, new int[] {2, 2}, new byte[] {0, 1, (byte) 200, (byte) 255})));
        assertEquals(DType.U8, u8.dtype());
        assertEquals(Shape.of(2, 2), u8.shape());
        assertArrayEquals(new long[] {0, 1, 200, 255}, u8.toLongArray());

        Tensor s8 = Idx.read(write(dir, "s8", idx(0x09, new int[] {3}, new byte[] {-1, 0, 127})));
        assertEquals(DType.S8, s8.dtype());
        assertArrayEquals(new long[] {-1, 0, 127}, s8.toLongArray());

        Tensor s16 = Idx.read(write(dir, "s16", idx(0x0B, new int[] {2}, ByteBuffer.allocate(4).putShort((short) -2).putShort((short) 300).array())));
        assertEquals(DType.S16, s16.dtype());
        assertArrayEquals(new long[] {-2, 300}, s16.toLongArray());

        Tensor s32 = Idx.read(write(dir, "s32", idx(0x0C, new int[] {1, 2}, ByteBuffer.allocate(8).putInt(-70000).putInt(1 << 30).array())));
        assertEquals(DType.S32, s32.dtype());
        assertArrayEquals(new int[] {-70000, 1 << 30}, s32.toIntArray());

        Tensor f32 = Idx.read(write(dir, "f32", idx(0x0D, new int[] {2}, ByteBuffer.allocate(8).putFloat(1.5f).putFloat(-0.25f).array())));
        assertEquals(DType.F32, f32.dtype());
        assertArrayEquals(new float[] {1.5f, -0.25f}, f32.toFloatArray());

        Tensor f64 = Idx.read(write(dir, "f64", idx(0x0E, new int[] {1, 1, 2}, ByteBuffer.allocate(16).putDouble(Math.PI).putDouble(-1e300).array())));
        assertEquals(DType.F64, f64.dtype());
        assertEquals(Shape.of(1, 1, 2), f64.shape());
        assertArrayEquals(new double[] {Math.PI, -1e300}, f64.toDoubleArray());
    }

    @Test
    void readsGzipByMagicWhateverTheName() {
        byte[] px = new byte[3 * 4 * 5];
        for (int i = 0; i < px.length; i++) px[i] = (byte) i;
        Tensor t = Idx.read(write(dir, "images.bin", gzip(idx(0x08, new int[] {3, 4, 5}, px))));
        assertEquals(Shape.of(3, 4, 5), t.shape());
        assertEquals(59, t.toLongArray()[59]);
    }

    @Test
    void readsAScalarAndAnEmptyTensor() {
        assertEquals(Shape.scalar(), Idx.read(write(dir, "scalar", idx(0x08, new int[0], new byte[] {7}))).shape());
        Tensor empty = Idx.read(write(dir, "empty", idx(0x0D, new int[] {0, 28}, new byte[0])));
        assertEquals(Shape.of(0, 28), empty.shape());
    }

    @Test
    void emptyFile() {
        assertFault(write(dir, "empty", new byte[0]), "empty file");
        assertFault(write(dir, "empty.gz", gzip(new byte[0])), "empty file");
    }

    @Test
    void wrongMagic() {
        assertFault(write(dir, "magic", new byte[] {1, 0, 8, 1, 0, 0, 0, 0}), "wrong magic number 01 00 08 01");
        assertFault(write(dir, "short", new byte[] {0, 0}), "truncated header");
    }

    @Test
    void unknownTypeCode() {
        assertFault(write(dir, "type", idx(0x0A, new int[] {1}, new byte[] {0})), "unknown type code 0x0a");
    }

    @Test
    void truncatedHeaderAndData() {
        assertFault(write(dir, "head", new byte[] {0, 0, 8, 2, 0, 0, 0, 3}), "truncated header: rank 2 needs 8 bytes");
        assertFault(write(dir, "data", idx(0x0D, new int[] {2, 3}, new byte[20])), "truncated: the dimensions [2, 3] of f32 promise 24 bytes of data, the file holds 20");
        assertFault(write(dir, "data.gz", gzip(idx(0x0D, new int[] {2, 3}, new byte[20]))), "promise 24 bytes of data, the file holds 20");
    }

    @Test
    void trailingBytes() {
        assertFault(write(dir, "tail", idx(0x08, new int[] {2}, new byte[5])), "3 bytes after the 2 bytes");
        assertFault(write(dir, "tail.gz", gzip(idx(0x08, new int[] {2}, new byte[5]))), "data after the 2 bytes");
    }

    @Test
    void hostileDimensionsFailBeforeAllocating() {
        int max = Integer.MAX_VALUE;
        assertFault(write(dir, "overflow", idx(0x0E, new int[] {max, max, max, max}, new byte[8])), "promise more than");
        assertFault(write(dir, "negative", idx(0x08, new int[] {-1}, new byte[8])), "dimension 0 is 4294967295");
        // 1 GiB promised by a file of a few bytes: refused by the file size, nothing allocated.
        assertFault(write(dir, "big", idx(0x08, new int[] {1 << 15, 1 << 15}, new byte[8])), "promise 1073741824 bytes of data, the file holds 8");
        // gzip: more than a deflate stream of that size can expand to.
        assertFault(write(dir, "big.gz", gzip(idx(0x08, new int[] {1 << 15, 1 << 15}, new byte[8]))), "more than a gzip file of");
    }

    @Test
    void gzipEndingEarlyIsTruncation() {
        // Within the deflate ratio bound, but the stream ends after 1000 of 20000 promised bytes.
        byte[] z = gzip(idx(0x08, new int[] {200, 100}, new byte[1000]));
        assertFault(write(dir, "early.gz", z), "promise 20000 bytes of data, the file holds 1000");
        byte[] cut = Arrays.copyOf(gzip(idx(0x08, new int[] {100}, new byte[100])), 20);
        assertFault(write(dir, "cut.gz", cut), "gzip");
    }

    @Test
    void corruptGzip() {
        byte[] z = gzip(idx(0x08, new int[] {100}, new byte[100]));
        for (int i = 10; i < z.length - 8; i++) z[i] = (byte) 0xFF;
        assertFault(write(dir, "corrupt.gz", z), "gzip");
    }

    @Test
    void closedResultsLeaveNoHostMemoryBehind() {
        Path f = write(dir, "small", idx(0x0D, new int[] {4, 4}, new byte[64]));
        for (int i = 0; i < 20; i++) Idx.read(f).close();
        long before = dev.jburn.spi.HostMemory.live();
        for (int i = 0; i < 500; i++) Idx.read(f).close();
        assertTrue(dev.jburn.spi.HostMemory.live() <= before + 1024, "live host bytes grew from " + before + " to " + dev.jburn.spi.HostMemory.live());
    }

    @Test
    void missingFile() {
        assertFault(dir.resolve("nope"), "no such file");
    }

    private static void assertFault(Path file, String expected) {
        JBurnException e = assertThrows(JBurnException.class, () -> Idx.read(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
    }
}
