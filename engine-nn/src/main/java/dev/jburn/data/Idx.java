package dev.jburn.data;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.spi.HostMemory;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.ZipException;

/**
 * The IDX format of MNIST and Fashion-MNIST: {@code 00 00 type rank}, then {@code rank}
 * big-endian 32-bit dimensions, then the elements, big-endian and row-major. Type codes:
 * {@code 0x08} u8, {@code 0x09} s8, {@code 0x0B} s16, {@code 0x0C} s32, {@code 0x0D} f32,
 * {@code 0x0E} f64. Files may be gzip-compressed (recognised by their first two bytes,
 * {@code 1f 8b}, whatever their name).
 *
 * <pre>{@code
 * Tensor images = Idx.read(Path.of("train-images-idx3-ubyte.gz"));   // u8[60000,28,28]
 * }</pre>
 *
 * The header is checked before anything is allocated: a wrong magic number, an unknown type,
 * dimensions whose product overflows or promises more data than the file can hold (for gzip:
 * more than a deflate stream of that size can expand to), a short or over-long payload: each is a
 * {@link JBurnException} naming the file. The payload is limited to 2 GiB.
 */
public final class Idx {
    private Idx() {}

    /** The largest payload read, in bytes (one Java array). */
    public static final long MAX_PAYLOAD_BYTES = Integer.MAX_VALUE - 8;

    /** The tensor stored in {@code file}, with the file's element type and dimensions. */
    public static Tensor read(Path file) {
        try (DataFiles.Opened f = DataFiles.open("idx", file)) {
            InputStream in = f.in();
            byte[] magic = in.readNBytes(4);
            if (magic.length == 0) throw fault(file, "empty file");
            if (magic.length < 4) throw fault(file, "truncated header: " + magic.length + " of the 4 magic bytes");
            if (magic[0] != 0 || magic[1] != 0) {
                throw fault(file, String.format("wrong magic number %02x %02x %02x %02x (an IDX file starts with 00 00, a type code, a rank)",
                        magic[0], magic[1], magic[2], magic[3]));
            }
            DType type = type(file, magic[2]);
            int rank = magic[3] & 0xFF;
            byte[] dimBytes = in.readNBytes(4 * rank);
            if (dimBytes.length < 4 * rank) {
                throw fault(file, "truncated header: rank " + rank + " needs " + 4 * rank + " bytes of dimensions, the file has " + dimBytes.length);
            }
            int[] dims = dims(file, dimBytes, rank);
            long bytes = payloadBytes(file, dims, type);
            long available = f.fileSize() - 4 - 4L * rank;
            if (!f.gzip()) {
                if (available < bytes) throw truncated(file, dims, type, bytes, available);
                if (available > bytes) throw fault(file, (available - bytes) + " bytes after the " + bytes + " bytes that the dimensions " + Arrays.toString(dims) + " promise");
            } else if (bytes > f.fileSize() * DataFiles.MAX_GZIP_RATIO) {
                throw fault(file, "the dimensions " + Arrays.toString(dims) + " promise " + bytes
                        + " bytes, more than a gzip file of " + f.fileSize() + " bytes can hold");
            }
            HostMemory.check("idx", 2 * bytes);
            byte[] data = f.gzip() ? readGrowing(in, (int) bytes) : in.readNBytes((int) bytes);
            if (data.length < bytes) throw truncated(file, dims, type, bytes, data.length);
            if (in.read() != -1) throw fault(file, "data after the " + bytes + " bytes that the dimensions " + Arrays.toString(dims) + " promise");
            return tensor(type, dims, data);
        } catch (EOFException e) {
            throw DataFiles.fault("idx", file, "truncated gzip stream (" + DataFiles.describe(e) + ")", e);
        } catch (ZipException e) {
            throw DataFiles.fault("idx", file, "corrupt gzip stream (" + DataFiles.describe(e) + ")", e);
        } catch (IOException e) {
            throw DataFiles.fault("idx", file, "cannot be read (" + DataFiles.describe(e) + ")", e);
        }
    }

    /** The element type of an IDX type code. */
    static DType type(Path file, byte code) {
        return switch (code) {
            case 0x08 -> DType.U8;
            case 0x09 -> DType.S8;
            case 0x0B -> DType.S16;
            case 0x0C -> DType.S32;
            case 0x0D -> DType.F32;
            case 0x0E -> DType.F64;
            default -> throw fault(file, String.format("unknown type code 0x%02x (known: 08 u8, 09 s8, 0b s16, 0c s32, 0d f32, 0e f64)", code));
        };
    }

    private static int[] dims(Path file, byte[] b, int rank) {
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.BIG_ENDIAN);
        int[] dims = new int[rank];
        for (int i = 0; i < rank; i++) {
            dims[i] = buf.getInt();
            if (dims[i] < 0) throw fault(file, "dimension " + i + " is " + Integer.toUnsignedString(dims[i]) + ", more than 2^31-1");
        }
        return dims;
    }

    private static long payloadBytes(Path file, int[] dims, DType type) {
        long n = 1;
        for (int d : dims) if (d == 0) return 0;
        for (int d : dims) {
            n *= d;
            if (n > MAX_PAYLOAD_BYTES) break; // each dim < 2^31, so this cannot overflow before the check
        }
        if (n > MAX_PAYLOAD_BYTES || type.byteSize(n) > MAX_PAYLOAD_BYTES) {
            throw fault(file, "the dimensions " + Arrays.toString(dims) + " of " + type.shortName()
                    + " promise more than " + MAX_PAYLOAD_BYTES + " bytes, the most this reader holds");
        }
        return type.byteSize(n);
    }

    /** Reads {@code expected} bytes or fewer when the stream ends, allocating as data arrives (a gzip header may lie). */
    private static byte[] readGrowing(InputStream in, int expected) throws IOException {
        byte[] buf = new byte[Math.min(expected, 1 << 20)];
        int n = 0;
        while (n < expected) {
            if (n == buf.length) buf = Arrays.copyOf(buf, (int) Math.min(expected, 2L * buf.length));
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) break;
            n += r;
        }
        return n == buf.length ? buf : Arrays.copyOf(buf, n);
    }

    private static Tensor tensor(DType type, int[] dims, byte[] data) {
        Shape shape = Shape.of(dims);
        ByteBuffer buf = ByteBuffer.wrap(data).order(ByteOrder.BIG_ENDIAN);
        int n = data.length / type.byteSize();
        Tensor flat = switch (type) {
            case U8, S8 -> Tensor.of(data);
            case S16 -> { short[] v = new short[n]; buf.asShortBuffer().get(v); yield Tensor.of(v); }
            case S32 -> { int[] v = new int[n]; buf.asIntBuffer().get(v); yield Tensor.of(v); }
            case F32 -> { float[] v = new float[n]; buf.asFloatBuffer().get(v); yield Tensor.of(v); }
            case F64 -> { double[] v = new double[n]; buf.asDoubleBuffer().get(v); yield Tensor.of(v); }
            default -> throw new IllegalStateException(type.toString());
        };
        try (flat; Tensor typed = flat.bitcast(type)) {
            return typed.reshape(shape);
        }
    }

    private static JBurnException truncated(Path file, int[] dims, DType type, long promised, long got) {
        return fault(file, "truncated: the dimensions " + Arrays.toString(dims) + " of " + type.shortName()
                + " promise " + promised + " bytes of data, the file holds " + Math.max(0, got));
    }

    private static JBurnException fault(Path file, String what) {
        return DataFiles.fault("idx", file, what);
    }
}
