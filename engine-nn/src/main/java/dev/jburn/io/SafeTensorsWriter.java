package dev.jburn.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes safetensors files atomically: into a temporary file beside the target, forced to disk,
 * then moved over the target in one step ({@code ATOMIC_MOVE}); on any failure the temporary file
 * is deleted and an existing target is left as it was. The header lists {@code __metadata__}
 * first, then the tensors in the map's order with contiguous offsets in that order, and is padded
 * with spaces to a multiple of 8 bytes, as the reference writer does.
 */
final class SafeTensorsWriter {
    private SafeTensorsWriter() {}

    private static final JsonFactory JSON = new JsonFactory();

    /**
     * Writes the file. When {@code checksumKey} is given, the metadata gains that key holding the
     * SHA-256 (hex) of the data region: the header is written with a placeholder of the same
     * length, the data is digested as it is written, and the header is then written again.
     */
    static void write(Path file, Map<String, Tensor> tensors, Map<String, String> metadata, String checksumKey) {
        check(file, tensors, metadata);
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        Map<String, String> meta = new LinkedHashMap<>(metadata);
        if (checksumKey != null) meta.put(checksumKey, "0".repeat(64));
        byte[] header = header(file, tensors, meta);
        Path temp = null;
        FileChannel ch = null;
        try {
            temp = createTemp(dir, target.getFileName().toString());
            ch = FileChannel.open(temp, StandardOpenOption.WRITE);
            Channels.writeFully(ch, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, header.length));
            Channels.writeFully(ch, ByteBuffer.wrap(header));
            MessageDigest digest = checksumKey == null ? null : sha256();
            final FileChannel out = ch;
            TensorBytes.Sink sink = b -> {
                if (digest != null) digest.update(b.duplicate());
                Channels.writeFully(out, b);
            };
            for (var e : tensors.entrySet()) {
                try {
                    TensorBytes.write(e.getValue(), TensorBytes.CHUNK_BYTES, sink);
                } catch (JBurnException x) {
                    throw IoErrors.safetensors(file, "cannot write tensor '" + e.getKey() + "': " + IoErrors.message(x), x);
                }
            }
            if (digest != null) {
                meta.put(checksumKey, HexFormat.of().formatHex(digest.digest()));
                byte[] real = header(file, tensors, meta);
                if (real.length != header.length) throw new IllegalStateException("the header changed length with its checksum");
                Channels.writeFully(ch, ByteBuffer.wrap(real), 8);
            }
            ch.force(true);
            ch.close();
            ch = null;
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            temp = null;
            syncDirectory(dir);
        } catch (JBurnException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw IoErrors.safetensors(file, "cannot write the file: " + IoErrors.message(e), e);
        } finally {
            if (ch != null) {
                try { ch.close(); } catch (IOException ignored) { /* the write already failed */ }
            }
            if (temp != null) {
                try { Files.deleteIfExists(temp); } catch (IOException ignored) { /* nothing more to do */ }
            }
        }
    }

    private static void check(Path file, Map<String, Tensor> tensors, Map<String, String> metadata) {
        if (file == null) throw new JBurnException(IoErrors.SAFETENSORS, "the path must not be null");
        if (tensors == null) throw IoErrors.safetensors(file, "the tensor map must not be null");
        if (metadata == null) throw IoErrors.safetensors(file, "the metadata map must not be null");
        for (var e : tensors.entrySet()) {
            if (e.getKey() == null) throw IoErrors.safetensors(file, "a tensor name must not be null");
            if (e.getKey().equals(HeaderJson.METADATA)) throw IoErrors.safetensors(file, "'__metadata__' cannot name a tensor");
            if (e.getValue() == null) throw IoErrors.safetensors(file, "tensor '" + e.getKey() + "' must not be null");
        }
        for (var e : metadata.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) throw IoErrors.safetensors(file, "metadata keys and values must not be null");
        }
    }

    /** The header JSON, padded with spaces to a multiple of 8 bytes. */
    static byte[] header(Path file, Map<String, Tensor> tensors, Map<String, String> metadata) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(buf)) {
            g.writeStartObject();
            if (!metadata.isEmpty()) {
                g.writeObjectFieldStart(HeaderJson.METADATA);
                for (var e : metadata.entrySet()) g.writeStringField(e.getKey(), e.getValue());
                g.writeEndObject();
            }
            long offset = 0;
            for (var e : tensors.entrySet()) {
                Tensor t = e.getValue();
                long bytes;
                try {
                    bytes = Math.multiplyExact(t.size(), t.dtype().byteSize());
                } catch (ArithmeticException x) {
                    throw IoErrors.safetensors(file, "tensor '" + e.getKey() + "' is too large");
                }
                g.writeObjectFieldStart(e.getKey());
                g.writeStringField("dtype", SafeDTypes.name(t.dtype()));
                g.writeArrayFieldStart("shape");
                for (int d : t.shape().dims()) g.writeNumber(d);
                g.writeEndArray();
                g.writeArrayFieldStart("data_offsets");
                g.writeNumber(offset);
                offset = Math.addExact(offset, bytes);
                g.writeNumber(offset);
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (ArithmeticException e) {
            throw IoErrors.safetensors(file, "the tensors hold more than 2^63 bytes");
        } catch (IOException e) {
            throw IoErrors.safetensors(file, "cannot write the header: " + IoErrors.message(e), e);
        }
        int pad = (8 - buf.size() % 8) % 8;
        for (int i = 0; i < pad; i++) buf.write(' ');
        if (buf.size() > SafeTensorsHeader.MAX_HEADER) {
            throw IoErrors.safetensors(file, "the header would be " + buf.size() + " bytes, over the limit of " + SafeTensorsHeader.MAX_HEADER);
        }
        return buf.toByteArray();
    }

    private static Path createTemp(Path dir, String name) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path p = dir.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
            try {
                return Files.createFile(p);
            } catch (FileAlreadyExistsException e) {
                if (attempt == 9) throw e;
            }
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Makes the rename durable where the platform allows opening a directory; elsewhere the move is still atomic. */
    private static void syncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | RuntimeException ignored) {
            // Windows cannot open a directory; the file itself is already forced.
        }
    }
}
