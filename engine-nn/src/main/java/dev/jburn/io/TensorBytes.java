package dev.jburn.io;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A tensor's elements as raw little-endian row-major bytes, and back, bit for bit for every
 * dtype (NaN payloads, -0.0, subnormals, U64 above 2^63). Bits travel through the signed integer
 * type of the same width ({@code bitcast}), so no float conversion ever touches them. Large
 * tensors move in chunks of at most {@code chunkBytes}, so the Java heap holds one chunk at a time.
 */
final class TensorBytes {
    private TensorBytes() {}

    /** The default chunk: 64 MiB. */
    static final int CHUNK_BYTES = 1 << 26;

    /** Receives the bytes of a tensor, one chunk at a time (position to limit). */
    interface Sink {
        void accept(ByteBuffer bytes) throws IOException;
    }

    /** Supplies {@code count} bytes of a tensor into a little-endian buffer, flipped for reading. */
    interface Source {
        ByteBuffer next(int count) throws IOException;
    }

    /** Writes {@code t}'s bytes to {@code sink}. */
    static void write(Tensor t, int chunkBytes, Sink sink) throws IOException {
        DType carrier = carrier(t.dtype());
        long n = t.size();
        int width = t.dtype().byteSize();
        // Elements per chunk: the host copy is a long[] for the narrow types, so count 8 bytes each.
        int per = Math.max(1, chunkBytes / 8);
        List<Tensor> temps = new ArrayList<>();
        try {
            Tensor bits = keep(temps, t.reshape(Shape.of(n)));
            if (t.dtype() != carrier) bits = keep(temps, bits.bitcast(carrier));
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(n, per) * width).order(ByteOrder.LITTLE_ENDIAN);
            for (long at = 0; at < n; at += per) {
                int len = (int) Math.min(per, n - at);
                try (Tensor part = n <= per ? bits.reshape(Shape.of(n)) : bits.slice(new int[] {(int) at}, new int[] {len})) {
                    buf.clear();
                    put(part, carrier, buf);
                    buf.flip();
                    sink.accept(buf);
                }
            }
        } finally {
            for (Tensor x : temps) x.close();
        }
    }

    /** A tensor of {@code dtype} and {@code shape} from {@code source}'s bytes, on the default engine. */
    static Tensor read(DType dtype, Shape shape, int chunkBytes, Source source) throws IOException {
        long n = shape.size();
        int width = dtype.byteSize();
        int per = Math.max(1, chunkBytes / width);
        List<Tensor> parts = new ArrayList<>(), temps = new ArrayList<>();
        try {
            if (n == 0) parts.add(part(dtype, source.next(0), 0));
            for (long at = 0; at < n; at += per) {
                int len = (int) Math.min(per, n - at);
                parts.add(part(dtype, source.next(len * width), len));
            }
            Tensor whole = parts.size() == 1 ? parts.getFirst() : keep(temps, Tensor.concatenate(parts, 0));
            if (dtype != carrier(dtype)) whole = keep(temps, whole.bitcast(dtype));
            // reshape shares the buffer: the result keeps it alive after the intermediates close.
            return whole.reshape(shape);
        } finally {
            for (Tensor x : parts) x.close();
            for (Tensor x : temps) x.close();
        }
    }

    private static Tensor keep(List<Tensor> temps, Tensor t) {
        temps.add(t);
        return t;
    }

    /** The type whose Java array carries {@code t}'s bits: S8, S16, S32 or S64; PRED carries itself (booleans). */
    static DType carrier(DType t) {
        if (t == DType.PRED) return DType.PRED;
        return DType.signed(t.bits());
    }

    private static void put(Tensor part, DType carrier, ByteBuffer buf) {
        switch (carrier) {
            case S32 -> buf.asIntBuffer().put(part.toIntArray());
            case S64 -> buf.asLongBuffer().put(part.toLongArray());
            case S16 -> {
                for (long v : part.toLongArray()) buf.putShort((short) v);
            }
            default -> { // S8, PRED: one byte each
                for (long v : part.toLongArray()) buf.put((byte) v);
            }
        }
        if (carrier == DType.S32 || carrier == DType.S64) buf.position((int) carrier.byteSize(part.size()));
    }

    private static Tensor part(DType dtype, ByteBuffer b, int len) {
        return switch (carrier(dtype)) {
            case PRED -> {
                boolean[] v = new boolean[len];
                for (int i = 0; i < len; i++) v[i] = b.get() != 0;
                yield Tensor.of(v);
            }
            case S8 -> {
                byte[] v = new byte[len];
                b.get(v);
                yield Tensor.of(v);
            }
            case S16 -> {
                short[] v = new short[len];
                b.asShortBuffer().get(v);
                yield Tensor.of(v);
            }
            case S32 -> {
                int[] v = new int[len];
                b.asIntBuffer().get(v);
                yield Tensor.of(v);
            }
            default -> {
                long[] v = new long[len];
                b.asLongBuffer().get(v);
                yield Tensor.of(v);
            }
        };
    }
}
