package dev.jburn.data;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** Builds IDX files for the tests. */
final class IdxBytes {
    private IdxBytes() {}

    /** A header of {@code type} and {@code dims}, then {@code payload}. */
    static byte[] idx(int type, int[] dims, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 * dims.length + payload.length).order(ByteOrder.BIG_ENDIAN);
        b.put((byte) 0).put((byte) 0).put((byte) type).put((byte) dims.length);
        for (int d : dims) b.putInt(d);
        b.put(payload);
        return b.array();
    }

    static byte[] gzip(byte[] data) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream g = new GZIPOutputStream(out)) {
                g.write(data);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path write(Path dir, String name, byte[] data) {
        try {
            return Files.write(dir.resolve(name), data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** u8 images {@code [n, 28, 28]} whose image i is filled with i, and labels {@code i % 10}. */
    static void fakeMnist(Path dir, String prefix, int images, int labels, boolean gz) {
        byte[] px = new byte[images * 28 * 28];
        for (int i = 0; i < px.length; i++) px[i] = (byte) (i / 784);
        byte[] lb = new byte[labels];
        for (int i = 0; i < labels; i++) lb[i] = (byte) (i % 10);
        byte[] a = idx(0x08, new int[] {images, 28, 28}, px), b = idx(0x08, new int[] {labels}, lb);
        write(dir, prefix + "-images-idx3-ubyte" + (gz ? ".gz" : ""), gz ? gzip(a) : a);
        write(dir, prefix + "-labels-idx1-ubyte" + (gz ? ".gz" : ""), gz ? gzip(b) : b);
    }
}
