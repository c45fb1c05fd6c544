package dev.jburn.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of a safetensors header, read with Jackson's streaming parser into plain entries: an
 * object of {@code name: {"dtype", "shape", "data_offsets"}} plus an optional {@code "__metadata__"}
 * object of strings. Duplicate names (and duplicate fields) are refused, as are trailing tokens,
 * non-integer or negative sizes and offsets, and numbers beyond a long. Unknown fields of an
 * entry are skipped, as the reference reader does. Layout is checked by {@link SafeTensorsHeader}.
 */
final class HeaderJson {
    private HeaderJson() {}

    static final String METADATA = "__metadata__";

    /** One entry as written; {@code dtype} is the file's name for it. */
    record RawEntry(String name, String dtype, long[] shape, long begin, long end) {}

    /** The entries in header order and the metadata (empty when absent or null). */
    record Parsed(List<RawEntry> entries, Map<String, String> metadata) {}

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // The header's own structure is three levels deep; this bounds what skipping unknown fields may meet.
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
            .build();

    /** Axes a shape may have; far more than any model uses, and it bounds what a hostile header can make us hold. */
    static final int MAX_RANK = 1024;

    /** Parses UTF-8 {@code json} (already checked to be valid UTF-8 starting with '{'). */
    static Parsed parse(byte[] json, Path file) {
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw fault(file, "the header is not a JSON object");
            List<RawEntry> entries = new ArrayList<>();
            Map<String, String> metadata = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals(METADATA)) {
                    if (t != JsonToken.VALUE_NULL) readMetadata(p, t, file, metadata);
                } else {
                    entries.add(readEntry(p, t, name, file));
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT) throw fault(file, "the header is not a JSON object");
            if (p.nextToken() != null) throw fault(file, "the header has data after its JSON object");
            return new Parsed(entries, metadata);
        } catch (JsonParseException e) {
            String m = e.getOriginalMessage();
            long at = e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
            String where = at < 0 ? "" : " (at byte " + at + " of the header)";
            throw fault(file, (m != null && m.startsWith("Duplicate field") ? "duplicate name in the header: " : "invalid JSON header: ")
                    + m + where, e);
        } catch (JsonProcessingException e) {
            throw fault(file, "invalid JSON header: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw fault(file, "cannot parse the header: " + IoErrors.message(e), e);
        }
    }

    private static void readMetadata(JsonParser p, JsonToken t, Path file, Map<String, String> out) throws IOException {
        if (t != JsonToken.START_OBJECT) throw fault(file, "__metadata__ must be an object of strings, got " + t.asString());
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_STRING) {
                throw fault(file, "__metadata__ must map strings to strings; '" + key + "' is not a string");
            }
            out.put(key, p.getText());
        }
    }

    private static RawEntry readEntry(JsonParser p, JsonToken t, String name, Path file) throws IOException {
        if (t != JsonToken.START_OBJECT) throw fault(file, "tensor '" + name + "' must be an object of dtype, shape and data_offsets");
        String dtype = null;
        long[] shape = null, offsets = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "dtype" -> {
                    if (v != JsonToken.VALUE_STRING) throw fault(file, "tensor '" + name + "': dtype must be a string");
                    dtype = p.getText();
                }
                case "shape" -> shape = readLongs(p, v, name, "shape", MAX_RANK, file);
                case "data_offsets" -> {
                    offsets = readLongs(p, v, name, "data_offsets", 2, file);
                    if (offsets.length != 2) throw fault(file, "tensor '" + name + "': data_offsets must be [begin, end], got " + offsets.length + " numbers");
                }
                default -> p.skipChildren();
            }
        }
        if (dtype == null || shape == null || offsets == null) {
            throw fault(file, "tensor '" + name + "' lacks " + (dtype == null ? "dtype" : shape == null ? "shape" : "data_offsets"));
        }
        return new RawEntry(name, dtype, shape, offsets[0], offsets[1]);
    }

    private static long[] readLongs(JsonParser p, JsonToken t, String name, String field, int max, Path file) throws IOException {
        if (t != JsonToken.START_ARRAY) throw fault(file, "tensor '" + name + "': " + field + " must be an array of integers");
        long[] out = new long[Math.min(max, 8)];
        int n = 0;
        JsonToken v;
        while ((v = p.nextToken()) != JsonToken.END_ARRAY) {
            if (n == max) {
                throw fault(file, "tensor '" + name + "': " + field + (max == 2 ? " must be [begin, end], got more than 2 numbers"
                        : " has more than " + max + " axes"));
            }
            if (v != JsonToken.VALUE_NUMBER_INT) throw fault(file, "tensor '" + name + "': " + field + " must hold non-negative integers, got " + p.getText());
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw fault(file, "tensor '" + name + "': " + field + " value " + p.getText() + " is too large");
            }
            long x = p.getLongValue();
            if (x < 0) throw fault(file, "tensor '" + name + "': " + field + " must hold non-negative integers, got " + x);
            if (n == out.length) out = java.util.Arrays.copyOf(out, Math.min(max, 2 * n));
            out[n++] = x;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    private static dev.jburn.JBurnException fault(Path file, String what) { return IoErrors.safetensors(file, what); }

    private static dev.jburn.JBurnException fault(Path file, String what, Throwable cause) { return IoErrors.safetensors(file, what, cause); }
}
