package dev.jburn.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** Positional reads and writes that finish the whole buffer or fail. */
final class Channels {
    private Channels() {}

    /** Fills {@code buf} from {@code position}; a file that ends first (it shrank while being read) is a fault. */
    static void readFully(FileChannel ch, ByteBuffer buf, long position, Path file) throws IOException {
        long at = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, at);
            if (n < 0) throw IoErrors.safetensors(file, "the file ended at byte " + at + " while reading (did it change?)");
            at += n;
        }
    }

    /** Writes all of {@code buf} at the channel's position. */
    static void writeFully(FileChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) ch.write(buf);
    }

    /** Writes all of {@code buf} at {@code position}, leaving the channel's position alone. */
    static void writeFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long at = position;
        while (buf.hasRemaining()) at += ch.write(buf, at);
    }
}
