package dev.jburn.io;

import dev.jburn.DType;
import dev.jburn.Shape;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A validated safetensors header: the tensors in data order and the metadata. {@link #read} makes
 * every check of the reference reader (huggingface/safetensors) before anything large is allocated:
 * the 8-byte length is read first and checked against the limit and the file size, then the header
 * bytes are read and checked (valid UTF-8, starting with '{', a JSON object, known dtypes), then
 * the layout: sorted by offset, the tensors start at 0 and each starts where the previous ended
 * (no gap, no overlap), each holds exactly {@code dtype size × product(shape)} bytes (computed with
 * overflow checks), and the last ends at the end of the file.
 *
 * @param headerLength the JSON's length in bytes (the 8-byte length field's value)
 * @param entries      the tensors, by increasing offset (the order they lie in the file)
 * @param metadata     {@code __metadata__}, empty when absent
 */
record SafeTensorsHeader(long headerLength, List<Entry> entries, Map<String, String> metadata) {
    /** The reference reader's limit on the header's length. */
    static final long MAX_HEADER = 100_000_000L;

    /**
     * One tensor.
     *
     * @param begin its first byte, from the start of the data region
     * @param end   one past its last byte
     */
    record Entry(String name, DType dtype, Shape shape, long begin, long end) {
        long bytes() { return end - begin; }
    }

    /** Where the data region starts in the file. */
    long dataStart() { return 8 + headerLength; }

    /** Bytes of the data region. */
    long dataLength() { return entries.isEmpty() ? 0 : entries.getLast().end(); }

    static SafeTensorsHeader read(FileChannel ch, Path file) throws IOException {
        long size = ch.size();
        if (size < 8) throw IoErrors.safetensors(file, "the file is " + size + " bytes long, too short for the 8-byte header length");
        ByteBuffer len = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        Channels.readFully(ch, len, 0, file);
        long n = len.flip().getLong();
        if (n < 0 || n > MAX_HEADER) {
            throw IoErrors.safetensors(file, "the header length " + Long.toUnsignedString(n) + " exceeds the limit of " + MAX_HEADER + " bytes");
        }
        if (n > size - 8) throw IoErrors.safetensors(file, "the header length " + n + " exceeds the file (" + size + " bytes)");
        ByteBuffer json = ByteBuffer.allocate((int) n);
        Channels.readFully(ch, json, 8, file);
        byte[] bytes = json.array();
        checkUtf8(bytes, file);
        if (n == 0 || bytes[0] != '{') throw IoErrors.safetensors(file, "the header does not start with '{'");
        HeaderJson.Parsed parsed = HeaderJson.parse(bytes, file);
        List<Entry> entries = layout(parsed.entries(), file);
        long data = entries.isEmpty() ? 0 : entries.getLast().end();
        long available = size - 8 - n;
        if (data != available) {
            throw IoErrors.safetensors(file, data < available
                    ? (available - data) + " bytes follow the last tensor (the tensors hold " + data + " bytes)"
                    : "the tensors need " + data + " bytes of data, but the file holds " + available);
        }
        return new SafeTensorsHeader(n, entries, parsed.metadata());
    }

    /** Strict UTF-8 (no malformed or unmappable sequences), decoded through a small buffer: no copy of the header. */
    private static void checkUtf8(byte[] bytes, Path file) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(8192);
        try {
            while (true) {
                CoderResult r = d.decode(in, out, true);
                if (r.isError()) r.throwException();
                out.clear();
                if (r.isUnderflow()) break;
            }
            while (true) {
                CoderResult r = d.flush(out);
                out.clear();
                if (r.isUnderflow()) break;
            }
        } catch (CharacterCodingException e) {
            throw IoErrors.safetensors(file, "the header is not valid UTF-8 (at byte " + in.position() + ")", e);
        }
    }

    /** The reference reader's layout checks, in its order, then JBurn's own limits on shapes. */
    private static List<Entry> layout(List<HeaderJson.RawEntry> raw, Path file) {
        List<HeaderJson.RawEntry> sorted = new ArrayList<>(raw);
        sorted.sort(Comparator.comparingLong(HeaderJson.RawEntry::begin).thenComparingLong(HeaderJson.RawEntry::end));
        List<Entry> out = new ArrayList<>(sorted.size());
        long start = 0;
        for (HeaderJson.RawEntry e : sorted) {
            DType t = SafeDTypes.parse(e.dtype());
            if (t == null) {
                throw IoErrors.safetensors(file, "tensor '" + e.name() + "' has " + (SafeDTypes.UNSUPPORTED.contains(e.dtype())
                        ? "dtype " + e.dtype() + ", which JBurn does not support" : "an unknown dtype '" + e.dtype() + "'"));
            }
            if (e.begin() != start || e.end() < e.begin()) {
                throw IoErrors.safetensors(file, "tensor '" + e.name() + "' has data_offsets [" + e.begin() + ", " + e.end() + "]"
                        + (e.end() < e.begin() ? ", which end before they begin"
                        : e.begin() < start ? ", overlapping the previous tensor, which ends at " + start
                        : ", leaving a gap after the previous tensor, which ends at " + start)
                        + " (tensors must be contiguous from offset 0)");
            }
            long bytes;
            try {
                long elements = 1;
                for (long d : e.shape()) elements = Math.multiplyExact(elements, d);
                bytes = Math.multiplyExact(elements, t.byteSize());
            } catch (ArithmeticException x) {
                throw IoErrors.safetensors(file, "tensor '" + e.name() + "': the byte size of " + e.dtype() + Arrays.toString(e.shape()) + " overflows");
            }
            if (bytes != e.end() - e.begin()) {
                throw IoErrors.safetensors(file, "tensor '" + e.name() + "': " + e.dtype() + Arrays.toString(e.shape()) + " needs " + bytes
                        + " bytes, but data_offsets [" + e.begin() + ", " + e.end() + "] hold " + (e.end() - e.begin()));
            }
            for (long d : e.shape()) {
                if (d > Integer.MAX_VALUE) {
                    throw IoErrors.safetensors(file, "tensor '" + e.name() + "': axis size " + d + " of " + Arrays.toString(e.shape())
                            + " exceeds JBurn's limit of " + Integer.MAX_VALUE);
                }
            }
            out.add(new Entry(e.name(), t, Shape.of(e.shape()), e.begin(), e.end()));
            start = e.end();
        }
        return List.copyOf(out);
    }
}
