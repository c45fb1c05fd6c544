package dev.jburn.io;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.nio.file.Path;
import java.util.Map;

/**
 * Tensors in <a href="https://github.com/huggingface/safetensors">safetensors</a> files, the format
 * PyTorch, JAX and the Hugging Face tools share: an 8-byte little-endian header length, a JSON
 * header ({@code {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}, "__metadata__":
 * {...}}}), then the raw little-endian row-major bytes.
 *
 * <pre>{@code
 * SafeTensors.write(Path.of("weights.safetensors"), Map.of("w", w, "b", b), Map.of("epoch", "3"));
 * Map<String, Tensor> t = SafeTensors.read(Path.of("weights.safetensors"));   // on the default engine
 * String epoch = SafeTensors.readMetadata(Path.of("weights.safetensors")).get("epoch");
 * }</pre>
 *
 * <p>Dtypes are named as the spec: {@code BOOL} (JBurn {@code PRED}), {@code U8, I8, U16, I16, U32,
 * I32, U64, I64} ({@code S8..S64} are {@code I8..I64}), {@code F16, BF16, F32, F64}; values travel bit
 * for bit (NaN payloads included). {@code BOOL} bytes other than 0 read as true (1).
 *
 * <p>Reading makes every check of the reference implementation before allocating anything large,
 * so a hostile or damaged file fails with a {@link JBurnException} (op {@code "safetensors"}, reason
 * starting with the file) rather than exhausting memory: a header of at most 100,000,000 bytes that
 * fits the file, valid UTF-8 JSON starting with '{', known dtypes, non-negative shapes, offsets
 * contiguous from 0 in order without overlap, byte sizes equal to dtype size × elements (with
 * overflow checks), no bytes after the last tensor; duplicate names are refused as well.
 *
 * <p>Writing is atomic: a temporary file in the same directory, forced to disk, then moved over
 * the target; on failure the target is left as it was and the temporary file removed. Tensors are
 * written in the map's order (use a {@code LinkedHashMap} for a fixed order); the header is padded
 * with spaces to a multiple of 8 bytes.
 */
public final class SafeTensors {
    private SafeTensors() {}

    /** Writes {@code tensors} to {@code file} (replacing it atomically), without metadata. */
    public static void write(Path file, Map<String, Tensor> tensors) { write(file, tensors, Map.of()); }

    /** Writes {@code tensors} and string {@code metadata} ({@code __metadata__}) to {@code file}, atomically. */
    public static void write(Path file, Map<String, Tensor> tensors, Map<String, String> metadata) {
        SafeTensorsWriter.write(file, tensors, metadata, null);
    }

    /**
     * Every tensor of {@code file}, on the default engine, in the order they lie in the file (for
     * files JBurn wrote, the order they were written). The map is unmodifiable.
     */
    public static Map<String, Tensor> read(Path file) { return SafeTensorsReader.read(file, null, null).tensors(); }

    /** The file's {@code __metadata__} (empty when it has none), reading and validating the header only. */
    public static Map<String, String> readMetadata(Path file) {
        return java.util.Collections.unmodifiableMap(SafeTensorsReader.header(file).metadata());
    }
}
