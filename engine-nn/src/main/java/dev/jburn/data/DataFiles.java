package dev.jburn.data;

import dev.jburn.JBurnException;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Opening data files, plain or gzip (told apart by the gzip magic {@code 1f 8b}), and naming them in faults. */
final class DataFiles {
    private DataFiles() {}

    /** Largest gzip expansion a deflate stream can reach (about 1032:1), rounded up. */
    static final long MAX_GZIP_RATIO = 1100;

    /** An open data file: its stream (decompressed when gzip), whether it was gzip, and its size on disk. */
    record Opened(InputStream in, boolean gzip, long fileSize) implements AutoCloseable {
        @Override public void close() throws IOException { in.close(); }
    }

    static Opened open(String op, Path file) {
        if (file == null) throw new JBurnException(op, "the path must not be null");
        try {
            long size = Files.size(file);
            InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
            raw.mark(2);
            int b0 = raw.read(), b1 = raw.read();
            raw.reset();
            boolean gzip = b0 == 0x1f && b1 == 0x8b;
            try {
                return new Opened(gzip ? new GZIPInputStream(raw, 1 << 16) : raw, gzip, size);
            } catch (IOException | RuntimeException e) {
                raw.close();
                throw e;
            }
        } catch (NoSuchFileException e) {
            throw fault(op, file, "no such file");
        } catch (IOException e) {
            throw fault(op, file, "cannot be read (" + describe(e) + ")", e);
        }
    }

    static JBurnException fault(String op, Path file, String what) {
        return new JBurnException(op, file + ": " + what);
    }

    static JBurnException fault(String op, Path file, String what, Throwable cause) {
        return new JBurnException(op, file + ": " + what, cause);
    }

    static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
