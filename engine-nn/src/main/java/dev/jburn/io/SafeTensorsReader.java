package dev.jburn.io;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads safetensors files: the header first (validated by {@link SafeTensorsHeader}), then the
 * tensors in file order with positional reads (no memory mapping, so a file truncated while it is
 * read is a fault, not a crash). Every failure is a {@link JBurnException} naming the file.
 */
final class SafeTensorsReader {
    private SafeTensorsReader() {}

    /** What {@link #header} and {@link #read} give: the validated header and, for {@code read}, the tensors. */
    record Contents(SafeTensorsHeader header, Map<String, Tensor> tensors) {}

    static SafeTensorsHeader header(Path file) {
        checkPath(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return SafeTensorsHeader.read(ch, file);
        } catch (JBurnException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw IoErrors.safetensors(file, "cannot read the file: " + IoErrors.message(e), e);
        }
    }

    /**
     * The header and the tensors, in file order. {@code digest}, when given, sees every byte of the
     * data region, in order. {@code check}, when given, runs on the header before any tensor data is read.
     */
    static Contents read(Path file, MessageDigest digest, Consumer<SafeTensorsHeader> check) {
        checkPath(file);
        Map<String, Tensor> out = new LinkedHashMap<>();
        boolean done = false;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            SafeTensorsHeader h = SafeTensorsHeader.read(ch, file);
            if (check != null) check.accept(h);
            long[] at = {h.dataStart()};
            ByteBuffer[] scratch = {ByteBuffer.allocate(0)};
            TensorBytes.Source source = count -> {
                if (scratch[0].capacity() < count) scratch[0] = ByteBuffer.allocate(count);
                ByteBuffer b = scratch[0].clear().limit(count);
                Channels.readFully(ch, b, at[0], file);
                at[0] += count;
                b.flip();
                if (digest != null) digest.update(b.duplicate());
                return b.order(ByteOrder.LITTLE_ENDIAN);
            };
            for (SafeTensorsHeader.Entry e : h.entries()) {
                try {
                    out.put(e.name(), TensorBytes.read(e.dtype(), e.shape(), TensorBytes.CHUNK_BYTES, source));
                } catch (JBurnException x) {
                    if (x.op().equals(IoErrors.SAFETENSORS)) throw x;
                    throw IoErrors.safetensors(file, "cannot make tensor '" + e.name() + "' (" + e.dtype().shortName() + e.shape()
                            + "): " + IoErrors.message(x), x);
                }
            }
            done = true;
            return new Contents(h, Collections.unmodifiableMap(out));
        } catch (JBurnException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw IoErrors.safetensors(file, "cannot read the file: " + IoErrors.message(e), e);
        } finally {
            if (!done) out.values().forEach(Tensor::close);
        }
    }

    /** A regular file only: a FIFO or device ({@code /dev/stdin}, {@code /dev/zero}) could block or never end. */
    private static void checkPath(Path file) {
        if (file == null) throw new JBurnException(IoErrors.SAFETENSORS, "the path must not be null");
        if (!Files.isRegularFile(file)) {
            throw IoErrors.safetensors(file, Files.exists(file) ? "is not a regular file" : "no such file");
        }
    }
}
