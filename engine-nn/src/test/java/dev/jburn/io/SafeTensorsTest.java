package dev.jburn.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class SafeTensorsTest {
    @TempDir Path dir;

    // ==== round trips ===========================================================================

    /** One tensor of every dtype, with the awkward values: NaN payloads, -0.0, subnormals, extremes; empty and scalar shapes. */
    static Map<String, Tensor> everyDtype() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("f32", Tensor.of(new int[] {0x7fc12345, 0x7f800001, 0xffc00000, 0x80000000, 0x00000001, 0x807fffff, 0x7f800000, 0x3f800000})
                .bitcast(DType.F32).reshape(2, 4));
        m.put("f64", Tensor.of(new long[] {0x7ff8_0000_dead_beefL, 0x7ff0_0000_0000_0001L, 0x8000_0000_0000_0000L, 1L, 0xfff0_0000_0000_0000L,
                Double.doubleToRawLongBits(Math.PI)}).bitcast(DType.F64).reshape(3, 1, 2));
        m.put("f16", Tensor.of(new short[] {0x7e01, 0x7c01, (short) 0x8000, 0x0001, 0x03ff, 0x7bff, (short) 0xfc00}).bitcast(DType.F16));
        m.put("bf16", Tensor.of(new short[] {0x7fc1, 0x7f81, (short) 0x8000, 0x0001, 0x007f, 0x7f7f}).bitcast(DType.BF16));
        m.put("u64", Tensor.of(new long[] {-1L, Long.MIN_VALUE, 0, 42}).bitcast(DType.U64).reshape(2, 2));
        m.put("s64", Tensor.of(new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1}));
        m.put("u32", Tensor.of(new int[] {-1, Integer.MIN_VALUE, 7}).bitcast(DType.U32));
        m.put("s32", Tensor.of(new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, -5}));
        m.put("u16", Tensor.of(new short[] {-1, Short.MIN_VALUE, 9}).bitcast(DType.U16));
        m.put("s16", Tensor.of(new short[] {Short.MIN_VALUE, Short.MAX_VALUE, -2}));
        m.put("u8", Tensor.of(new byte[] {-1, -128, 0, 1}).bitcast(DType.U8));
        m.put("s8", Tensor.of(new byte[] {Byte.MIN_VALUE, Byte.MAX_VALUE, -3}));
        m.put("pred", Tensor.of(new boolean[] {true, false, false, true, true}));
        m.put("scalar_f32", Tensor.scalar(-0.0f));
        m.put("scalar_pred", Tensor.scalar(true));
        m.put("empty", Tensor.of(new float[0]));
        m.put("empty_3d", Tensor.zeros(Shape.of(2, 0, 3), DType.BF16));
        m.put("after_empty", Tensor.of(new double[] {Double.MIN_VALUE, -Double.MAX_VALUE}));
        return m;
    }

    /** The raw bits of every element, widened to longs (PRED as 0/1). */
    static long[] bits(Tensor t) {
        if (t.dtype() == DType.PRED) {
            boolean[] b = t.toBooleanArray();
            long[] out = new long[b.length];
            for (int i = 0; i < b.length; i++) out[i] = b[i] ? 1 : 0;
            return out;
        }
        DType carrier = DType.signed(t.dtype().bits());
        return (t.dtype() == carrier ? t : t.bitcast(carrier)).toLongArray();
    }

    static void assertSameTensor(String name, Tensor want, Tensor got) {
        assertNotNull(got, name);
        assertEquals(want.dtype(), got.dtype(), name);
        assertEquals(want.shape(), got.shape(), name);
        assertArrayEquals(bits(want), bits(got), name);
    }

    @Test
    void everyDtypeRoundTripsBitForBitInOrder() {
        Map<String, Tensor> t = everyDtype();
        Path f = dir.resolve("all.safetensors");
        SafeTensors.write(f, t, Map.of("note", "ünïcode ✓", "epoch", "3"));
        Map<String, Tensor> back = SafeTensors.read(f);
        assertEquals(List.copyOf(t.keySet()), List.copyOf(back.keySet()));
        t.forEach((k, v) -> assertSameTensor(k, v, back.get(k)));
        assertEquals(Map.of("note", "ünïcode ✓", "epoch", "3"), SafeTensors.readMetadata(f));
        assertThrows(UnsupportedOperationException.class, () -> back.put("x", null));
    }

    @Test
    void noMetadataAndNoTensorsAreFine() {
        Path f = dir.resolve("empty.safetensors");
        SafeTensors.write(f, Map.of());
        assertTrue(SafeTensors.read(f).isEmpty());
        assertTrue(SafeTensors.readMetadata(f).isEmpty());
    }

    @Test
    void theBytesAreTheFormatExactly() throws IOException {
        Path f = dir.resolve("exact.safetensors");
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("a", Tensor.of(1f, 2f));
        m.put("b", Tensor.of(new short[] {-2}).reshape());
        SafeTensors.write(f, m);
        String json = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},\"b\":{\"dtype\":\"I16\",\"shape\":[],\"data_offsets\":[8,10]}}";
        int padded = (json.length() + 7) / 8 * 8;
        ByteBuffer want = ByteBuffer.allocate(8 + padded + 10).order(ByteOrder.LITTLE_ENDIAN);
        want.putLong(padded).put((json + " ".repeat(padded - json.length())).getBytes(StandardCharsets.UTF_8));
        want.putFloat(1f).putFloat(2f).putShort((short) -2);
        assertArrayEquals(want.array(), Files.readAllBytes(f));
    }

    @Test
    void oneTensorOrNoneGivesTheReferenceWritersBytes() throws IOException {
        // The byte layouts the reference implementation's own serialization tests expect.
        Path empty = dir.resolve("empty.safetensors"), meta = dir.resolve("meta.safetensors"), one = dir.resolve("one.safetensors");
        SafeTensors.write(empty, Map.of());
        assertArrayEquals(new byte[] {8, 0, 0, 0, 0, 0, 0, 0, '{', '}', ' ', ' ', ' ', ' ', ' ', ' '}, Files.readAllBytes(empty));
        SafeTensors.write(meta, Map.of(), Map.of("framework", "pt"));
        assertArrayEquals(frame(("{\"__metadata__\":{\"framework\":\"pt\"}}" + " ".repeat(5)).getBytes(StandardCharsets.UTF_8), new byte[0]),
                Files.readAllBytes(meta));
        SafeTensors.write(one, Map.of("attn0", Tensor.of(0f, 1f, 2f, 3f, 4f, 5f).reshape(1, 1, 2, 3)));
        ByteBuffer data = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 6; i++) data.putFloat(i);
        byte[] want = frame(("{\"attn0\":{\"dtype\":\"F32\",\"shape\":[1,1,2,3],\"data_offsets\":[0,24]}}" + " ".repeat(7))
                .getBytes(StandardCharsets.UTF_8), data.array());
        assertEquals(72, want.length - 8 - 24);
        assertArrayEquals(want, Files.readAllBytes(one));
    }

    @Test
    void headerOrderDoesNotMatterOnlyOffsetsDo() throws IOException {
        // The reference reader sorts by offset: a header listing the tensors out of offset order is valid.
        Path f = file("reordered", "{\"b\":{\"dtype\":\"I32\",\"shape\":[1],\"data_offsets\":[4,8]},"
                + "\"a\":{\"dtype\":\"I32\",\"shape\":[1],\"data_offsets\":[0,4]},\"z\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[0,0]}}",
                le(7, 9));
        Map<String, Tensor> t = SafeTensors.read(f);
        assertEquals(List.of("z", "a", "b"), List.copyOf(t.keySet()));
        assertArrayEquals(new int[] {7}, t.get("a").toIntArray());
        assertArrayEquals(new int[] {9}, t.get("b").toIntArray());
    }

    @Test
    void chunkedTransferKeepsEveryBit() throws IOException {
        // Chunks of 16 bytes: many slices on write, a concatenation on read.
        for (Tensor t : List.of(Tensor.iota(Shape.of(5, 7), DType.F32).divide(3.0), Tensor.of(new long[] {-1, 5, Long.MIN_VALUE}).bitcast(DType.F64),
                Tensor.iota(Shape.of(37), DType.S32).bitcast(DType.F32).asType(DType.F16), Tensor.iota(Shape.of(21), DType.S32).equal(3),
                Tensor.iota(Shape.of(3, 11), DType.U8))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            TensorBytes.write(t, 16, b -> {
                byte[] x = new byte[b.remaining()];
                b.get(x);
                out.write(x);
            });
            assertEquals(t.size() * t.dtype().byteSize(), out.size());
            ByteBuffer all = ByteBuffer.wrap(out.toByteArray());
            Tensor back = TensorBytes.read(t.dtype(), t.shape(), 16, n -> {
                ByteBuffer b = all.slice(all.position(), n).order(ByteOrder.LITTLE_ENDIAN);
                all.position(all.position() + n);
                return b;
            });
            assertSameTensor(t.dtype().shortName(), t, back);
        }
    }

    // ==== other readers and writers ================================================================

    static void assumePython() {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "/usr/bin/python3 is not installed");
    }

    static String python(String script, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/python3", "-c", script));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python did not finish");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /** A reader written from the format description with the standard library only. */
    static final String PY_READER = """
            import json, struct, sys
            data = open(sys.argv[1], 'rb').read()
            (n,) = struct.unpack('<Q', data[:8])
            assert n % 8 == 0, 'header not padded to 8'
            header = json.loads(data[8:8 + n].decode('utf-8'))
            body = data[8 + n:]
            fmt = {'F32': 'f', 'F64': 'd', 'I32': 'i', 'I64': 'q', 'U8': 'B'}
            out = {'__metadata__': header.pop('__metadata__', {}), 'tensors': {}}
            end = 0
            for name, info in header.items():
                b, e = info['data_offsets']
                count = 1
                for d in info['shape']:
                    count *= d
                raw = body[b:e]
                values = list(struct.unpack('<%d%s' % (count, fmt[info['dtype']]), raw))
                out['tensors'][name] = {'dtype': info['dtype'], 'shape': info['shape'], 'values': [repr(v) for v in values]}
                end = max(end, e)
            assert end == len(body), 'trailing or missing bytes'
            print(json.dumps(out))
            """;

    @Test
    void aPythonReaderOfTheStandardLibraryReadsOurFiles() throws Exception {
        assumePython();
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("weights", Tensor.of(new float[][] {{1.5f, -0.0f, 3.25e-39f}, {Float.MAX_VALUE, -1e-7f, 0.1f}}));
        m.put("bias", Tensor.of(Math.PI, -Double.MIN_VALUE));
        m.put("ids", Tensor.of(new int[][] {{Integer.MIN_VALUE, -1}, {0, Integer.MAX_VALUE}}));
        m.put("big", Tensor.of(Long.MIN_VALUE, 1L << 53));
        m.put("bytes", Tensor.of(new byte[] {-1, 0, 127}).bitcast(DType.U8));
        m.put("scalar", Tensor.scalar(2.5f));
        Path f = dir.resolve("for python.safetensors");
        SafeTensors.write(f, m, Map.of("format", "test"));
        JsonNode out = new ObjectMapper().readTree(python(PY_READER, f.toString()));
        assertEquals("test", out.get("__metadata__").get("format").asText());
        JsonNode t = out.get("tensors");
        assertEquals(List.copyOf(m.keySet()), iterable(t.fieldNames()));
        assertEquals("F32", t.get("weights").get("dtype").asText());
        assertEquals("[2,3]", t.get("weights").get("shape").toString());
        float[] w = m.get("weights").toFloatArray();
        for (int i = 0; i < w.length; i++) {
            // Python's repr of a float32 widened to double is exact: compare bit patterns.
            double py = Double.parseDouble(t.get("weights").get("values").get(i).asText());
            assertEquals(Float.floatToRawIntBits(w[i]), Float.floatToRawIntBits((float) py), "weights[" + i + "]");
            assertEquals((double) w[i], py);
        }
        assertEquals(Double.doubleToRawLongBits(Math.PI), Double.doubleToRawLongBits(Double.parseDouble(t.get("bias").get("values").get(0).asText())));
        assertEquals(-Double.MIN_VALUE, Double.parseDouble(t.get("bias").get("values").get(1).asText()));
        assertEquals("I32", t.get("ids").get("dtype").asText());
        assertEquals(List.of(String.valueOf(Integer.MIN_VALUE), "-1", "0", String.valueOf(Integer.MAX_VALUE)), texts(t.get("ids").get("values")));
        assertEquals("I64", t.get("big").get("dtype").asText());
        assertEquals(List.of(String.valueOf(Long.MIN_VALUE), String.valueOf(1L << 53)), texts(t.get("big").get("values")));
        assertEquals(List.of("255", "0", "127"), texts(t.get("bytes").get("values")));
        assertEquals("[]", t.get("scalar").get("shape").toString());
        assertEquals(List.of("2.5"), texts(t.get("scalar").get("values")));
    }

    @Test
    void weReadAFileAPythonWriterMade() throws Exception {
        assumePython();
        // Unpadded header, keys in another order than the data, metadata last: all allowed by the format.
        String writer = """
                import json, struct, sys
                body = struct.pack('<3f', 1.0, -2.5, float('inf')) + struct.pack('<2q', -7, 1 << 62) + struct.pack('<d', -0.0)
                header = {'y': {'dtype': 'I64', 'shape': [2], 'data_offsets': [12, 28]},
                          'x': {'dtype': 'F32', 'shape': [3, 1], 'data_offsets': [0, 12]},
                          'z': {'dtype': 'F64', 'shape': [], 'data_offsets': [28, 36]},
                          '__metadata__': {'source': 'python'}}
                h = json.dumps(header).encode('utf-8')
                open(sys.argv[1], 'wb').write(struct.pack('<Q', len(h)) + h + body)
                """;
        Path f = dir.resolve("from-python.safetensors");
        python(writer, f.toString());
        Map<String, Tensor> t = SafeTensors.read(f);
        assertEquals(List.of("x", "y", "z"), List.copyOf(t.keySet()));
        assertEquals(Shape.of(3, 1), t.get("x").shape());
        assertArrayEquals(new float[] {1f, -2.5f, Float.POSITIVE_INFINITY}, t.get("x").toFloatArray());
        assertArrayEquals(new long[] {-7, 1L << 62}, t.get("y").toLongArray());
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) t.get("z").item()));
        assertEquals(Map.of("source", "python"), SafeTensors.readMetadata(f));
    }

    // ==== hostile files =============================================================================

    private static final String OK_ENTRY = "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}";

    @Test
    void tooShortFilesFail() throws IOException {
        assertFault(raw("empty", new byte[0]), "too short");
        assertFault(raw("five", new byte[] {8, 0, 0, 0, 0}), "too short");
    }

    @Test
    void headerLengthsBeyondTheLimitOrTheFileFail() throws IOException {
        assertFault(withLength("max", Long.MAX_VALUE, "{}"), "exceeds the limit");
        assertFault(withLength("unsigned", -1L, "{}"), "18446744073709551615");
        assertFault(withLength("hundred-mb", 100_000_001L, "{}"), "exceeds the limit of 100000000");
        assertFault(withLength("past-end", 1000, "{}"), "exceeds the file");
    }

    @Test
    void headersThatAreNotUtf8JsonObjectsFail() throws IOException {
        byte[] bad = "{\"\u00e9\":{}}".getBytes(StandardCharsets.ISO_8859_1); // a lone 0xE9 byte is not UTF-8
        assertFault(raw("latin1", frame(bad, new byte[0])), "not valid UTF-8");
        byte[] overlong = {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', ':', '1', '}'};
        assertFault(raw("overlong", frame(overlong, new byte[0])), "not valid UTF-8");
        assertFault(file("array", "[1, 2]", new byte[0]), "does not start with '{'");
        assertFault(file("space-first", " {}", new byte[0]), "does not start with '{'");
        assertFault(file("empty-header", "", new byte[0]), "does not start with '{'");
        assertFault(file("truncated-json", "{\"a\":{\"dtype\":", new byte[0]), "invalid JSON");
        assertFault(file("trailing-json", "{} {}", new byte[0]), "JSON");
        assertFault(file("not-an-entry", "{\"a\": 5}", new byte[0]), "must be an object");
        assertFault(file("bad-metadata", "{\"__metadata__\": {\"k\": 1}}", new byte[0]), "strings to strings");
        assertFault(file("missing-field", "{\"a\":{\"dtype\":\"F32\",\"shape\":[0]}}", new byte[0]), "lacks data_offsets");
        StringBuilder deep = new StringBuilder("{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0],\"x\":");
        deep.append("[".repeat(5000)).append("]".repeat(5000)).append("}}");
        assertFault(file("deep", deep.toString(), new byte[0]), "JSON");
    }

    @Test
    void duplicateNamesFail() throws IOException {
        assertFault(file("dup", "{" + OK_ENTRY + "," + OK_ENTRY.replace("[0,8]", "[8,16]") + "}", new byte[16]), "duplicate");
        assertFault(file("dup-field", "{\"a\":{\"dtype\":\"F32\",\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}", new byte[0]), "duplicate");
    }

    @Test
    void unknownDtypesAndBadShapesFail() throws IOException {
        assertFault(file("f128", "{\"a\":{\"dtype\":\"F128\",\"shape\":[1],\"data_offsets\":[0,16]}}", new byte[16]), "unknown dtype 'F128'");
        assertFault(file("fp8", "{\"a\":{\"dtype\":\"F8_E4M3\",\"shape\":[1],\"data_offsets\":[0,1]}}", new byte[1]), "does not support");
        assertFault(file("lower", "{\"a\":{\"dtype\":\"f32\",\"shape\":[1],\"data_offsets\":[0,4]}}", new byte[4]), "unknown dtype");
        assertFault(file("negative", "{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}", new byte[4]), "non-negative");
        assertFault(file("fraction", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,4]}}", new byte[4]), "integers");
        assertFault(file("huge-number", "{\"a\":{\"dtype\":\"F32\",\"shape\":[99999999999999999999],\"data_offsets\":[0,4]}}", new byte[4]), "too large");
        assertFault(file("three-offsets", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4,8]}}", new byte[8]), "[begin, end]");
        assertFault(file("overflow", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1099511627776,1099511627776],\"data_offsets\":[0,4]}}", new byte[4]), "overflows");
        assertFault(file("size", "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", new byte[8]), "needs 12 bytes");
        // Valid for the reference reader (0 bytes), but a JBurn axis holds at most 2^31 - 1.
        assertFault(file("wide-axis", "{\"a\":{\"dtype\":\"U8\",\"shape\":[2147483648,0],\"data_offsets\":[0,0]}}", new byte[0]), "JBurn's limit");
    }

    @Test
    void offsetsMustBeContiguousFromZero() throws IOException {
        String b = "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[%d,%d]}";
        assertFault(file("gap", "{" + OK_ENTRY + "," + b.formatted(12, 16) + "}", new byte[16]), "gap");
        assertFault(file("overlap", "{" + OK_ENTRY + "," + b.formatted(4, 8) + "}", new byte[8]), "overlapping");
        assertFault(file("not-at-zero", "{" + b.formatted(4, 8) + "}", new byte[8]), "contiguous from offset 0");
        assertFault(file("reversed", "{" + OK_ENTRY + "," + b.formatted(12, 8) + "}", new byte[12]), "end before they begin");
        assertFault(file("beyond", "{" + OK_ENTRY + "," + b.formatted(8, 12) + "}", new byte[10]), "the file holds 10");
        assertFault(file("trailing", "{" + OK_ENTRY + "}", new byte[9]), "1 bytes follow the last tensor");
    }

    @Test
    void missingFilesAndDirectoriesFailAsJBurnExceptions() {
        assertFault(dir.resolve("nope.safetensors"), "no such file");
        assertFault(dir, "is not a regular file");
        assertFault(Path.of("/dev/zero"), "is not a regular file");
        JBurnException e = assertThrows(JBurnException.class, () -> SafeTensors.readMetadata(dir.resolve("nope.safetensors")));
        assertEquals("safetensors", e.op());
    }

    @Test
    void metadataReadingValidatesTheWholeHeader() throws IOException {
        Path f = file("trailing-meta", "{\"__metadata__\":{\"k\":\"v\"}," + OK_ENTRY + "}", new byte[12]);
        JBurnException e = assertThrows(JBurnException.class, () -> SafeTensors.readMetadata(f));
        assertTrue(e.getMessage().contains("follow the last tensor"), e.getMessage());
    }

    // ==== atomic writes =============================================================================

    @Test
    void aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws IOException {
        Path f = dir.resolve("keep.safetensors");
        SafeTensors.write(f, Map.of("old", Tensor.of(1f, 2f, 3f)));
        byte[] before = Files.readAllBytes(f);
        Tensor closed = Tensor.of(4f);
        closed.close();
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("fine", Tensor.iota(Shape.of(1000), DType.F32));
        m.put("closed", closed);
        JBurnException e = assertThrows(JBurnException.class, () -> SafeTensors.write(f, m));
        assertEquals("safetensors", e.op());
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("'closed'"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(f));
        assertEquals(List.of(f), list());
    }

    @Test
    void aWriteReplacesTheOldFileAndLeavesNothingElse() throws IOException {
        Path f = dir.resolve("replace.safetensors");
        SafeTensors.write(f, Map.of("old", Tensor.of(1f, 2f, 3f)));
        SafeTensors.write(f, Map.of("new", Tensor.of(5)));
        assertEquals(List.of("new"), List.copyOf(SafeTensors.read(f).keySet()));
        assertEquals(List.of(f), list());
    }

    @Test
    void badArgumentsFailBeforeAnyFileIsMade() {
        Path f = dir.resolve("args.safetensors");
        Map<String, Tensor> withNull = new LinkedHashMap<>();
        withNull.put("x", null);
        assertThrows(JBurnException.class, () -> SafeTensors.write(f, withNull));
        assertThrows(JBurnException.class, () -> SafeTensors.write(f, Map.of("__metadata__", Tensor.of(1f))));
        assertThrows(JBurnException.class, () -> SafeTensors.write(null, Map.of()));
        assertThrows(JBurnException.class, () -> SafeTensors.write(dir.resolve("no-such-dir").resolve("x.safetensors"), Map.of()));
        assertEquals(List.of(), list());
    }

    // ==== helpers ===================================================================================

    private List<Path> list() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static void assertFault(Path f, String fragment) {
        JBurnException e = assertThrows(JBurnException.class, () -> SafeTensors.read(f), f.toString());
        assertEquals("safetensors", e.op(), e.getMessage());
        assertTrue(e.getMessage().contains(f.toString()), "names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "expected '" + fragment + "' in: " + e.getMessage());
    }

    private Path raw(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name + ".safetensors"), bytes);
    }

    private Path withLength(String name, long length, String header) throws IOException {
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        return raw(name, ByteBuffer.allocate(8 + h.length).order(ByteOrder.LITTLE_ENDIAN).putLong(length).put(h).array());
    }

    private Path file(String name, String header, byte[] data) throws IOException {
        return raw(name, frame(header.getBytes(StandardCharsets.UTF_8), data));
    }

    static byte[] frame(byte[] header, byte[] data) {
        return ByteBuffer.allocate(8 + header.length + data.length).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(header.length).put(header).put(data).array();
    }

    static byte[] le(int... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : v) b.putInt(x);
        return b.array();
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    private static List<String> texts(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asText()));
        return out;
    }
}
