package dev.jburn.serving;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.jburn.DType;
import dev.jburn.Tensor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The JSON of the Open Inference Protocol v2 ({@code /v2/models/{name}/infer}), read with Jackson's streaming
 * parser so that memory is bounded by the body: the data is collected as it streams (flat or nested arrays), then
 * checked against the declared shape and the model's input spec — a hostile shape allocates nothing. Every fault
 * is an {@link InferJsonException} whose message names the field (the server answers 400 with it).
 *
 * <pre>{@code
 * {"id": "1", "inputs": [{"name": "image", "shape": [1, 784], "datatype": "FP32", "data": [0.0, 0.5, ...]}],
 *  "parameters": {"timeout_ms": 100}}
 * }</pre>
 *
 * The binary tensor data extension (KServe, Triton): an input with {@code "parameters": {"binary_data_size": 3136}}
 * instead of {@code "data"} has its values as little-endian bytes after the JSON, whose length the
 * {@code Inference-Header-Content-Length} header gives; {@code "outputs": [{"name": "logits", "parameters":
 * {"binary_data": true}}]} or {@code "parameters": {"binary_data_output": true}} asks for the output the same way.
 * The declared size must equal shape × element size and the bytes present, checked before anything is allocated.
 */
final class InferJson {
    private InferJson() {}

    /** A request the server refuses (400): the message says what is wrong. */
    static final class InferJsonException extends RuntimeException {
        InferJsonException(String message) { super(message); }
    }

    /** The numeric datatypes a float or integer model input accepts; BOOL and BYTES are refused. */
    private static final Set<String> NUMERIC = Set.of("FP16", "BF16", "FP32", "FP64", "INT8", "INT16", "INT32", "INT64",
            "UINT8", "UINT16", "UINT32", "UINT64");
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).maxNumberLength(64).maxStringLength(1 << 20).build())
            .build();

    /** Decodes a request body that is JSON only. */
    static InferRequest decode(byte[] body) { return decode(body, null); }

    /**
     * Decodes a request body: JSON only when {@code headerLength} (the {@code Inference-Header-Content-Length} header)
     * is null, otherwise that many bytes of JSON followed by the binary tensor data of the inputs that declare
     * {@code binary_data_size}. Every size is checked against the body and the declared shape and datatype before
     * anything is allocated.
     */
    static InferRequest decode(byte[] body, String headerLength) {
        int jsonLength = body.length;
        if (headerLength != null) {
            long n;
            try {
                n = Long.parseLong(headerLength.trim());
            } catch (NumberFormatException e) {
                throw new InferJsonException("the " + BinaryTensorData.HEADER + " header must be an integer, got '" + headerLength + "'");
            }
            if (n < 0 || n > body.length) {
                throw new InferJsonException("the " + BinaryTensorData.HEADER + " header says " + n + " bytes of JSON, the body has " + body.length);
            }
            jsonLength = (int) n;
        }
        try (JsonParser p = JSON.createParser(body, 0, jsonLength)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new InferJsonException("the body must be a JSON object");
            String id = null;
            Input input = null;
            RequestParameters params = RequestParameters.NONE;
            OutputRequest output = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "id" -> {
                        if (v != JsonToken.VALUE_STRING) throw new InferJsonException("\"id\" must be a string");
                        id = p.getText();
                    }
                    case "inputs" -> {
                        if (v != JsonToken.START_ARRAY) throw new InferJsonException("\"inputs\" must be an array");
                        List<Input> ins = new ArrayList<>();
                        while (p.nextToken() != JsonToken.END_ARRAY) ins.add(input(p));
                        if (ins.size() != 1) throw new InferJsonException("\"inputs\" must hold exactly one input, got " + ins.size());
                        input = ins.getFirst();
                    }
                    case "outputs" -> output = outputs(p, v);
                    case "parameters" -> params = parameters(p, v);
                    default -> p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT) throw new InferJsonException("malformed JSON");
            if (p.nextToken() != null) throw new InferJsonException("trailing content after the JSON object");
            if (input == null) throw new InferJsonException("the request has no \"inputs\"");
            double[] values = input.values(body, jsonLength, headerLength != null);
            boolean binaryOut = output != null && output.binary() != null ? output.binary() : params.binaryOutput();
            return new InferRequest(id, input.name(), input.shape(), values, params.timeoutMs(), output == null ? null : output.name(), binaryOut);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new InferJsonException("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InferJsonException("malformed JSON: " + e.getMessage());
        }
    }

    /** The request's {@code "parameters"}: {@code timeout_ms} (-1: none) and {@code binary_data_output}. */
    private record RequestParameters(long timeoutMs, boolean binaryOutput) {
        static final RequestParameters NONE = new RequestParameters(-1, false);
    }

    private static RequestParameters parameters(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) throw new InferJsonException("\"parameters\" must be an object");
        long timeout = -1;
        boolean binary = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (f.equals("timeout_ms")) {
                if (t != JsonToken.VALUE_NUMBER_INT || p.getLongValue() < 0) throw new InferJsonException("\"timeout_ms\" must be an integer >= 0");
                timeout = p.getLongValue();
            } else if (f.equals("binary_data_output")) {
                binary = bool(t, "binary_data_output");
            } else {
                p.skipChildren();
            }
        }
        return new RequestParameters(timeout, binary);
    }

    private static boolean bool(JsonToken t, String name) {
        if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) throw new InferJsonException("\"" + name + "\" must be true or false");
        return t == JsonToken.VALUE_TRUE;
    }

    /** The one output a request may name, and its {@code binary_data} (null: not given). */
    private record OutputRequest(String name, Boolean binary) {}

    private static OutputRequest outputs(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_ARRAY) throw new InferJsonException("\"outputs\" must be an array");
        List<OutputRequest> outs = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) throw new InferJsonException("each requested output must be an object");
            if (outs.size() == 1) throw new InferJsonException("\"outputs\" may name one output (the model has one)");
            String name = null;
            Boolean binary = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                if (f.equals("name")) {
                    if (t != JsonToken.VALUE_STRING) throw new InferJsonException("the requested output's \"name\" must be a string");
                    name = p.getText();
                } else if (f.equals("parameters")) {
                    if (t != JsonToken.START_OBJECT) throw new InferJsonException("the requested output's \"parameters\" must be an object");
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String pf = p.currentName();
                        JsonToken pt = p.nextToken();
                        if (pf.equals("binary_data")) binary = bool(pt, "binary_data");
                        else p.skipChildren();
                    }
                } else {
                    p.skipChildren();
                }
            }
            if (name == null) throw new InferJsonException("a requested output needs a \"name\"");
            outs.add(new OutputRequest(name, binary));
        }
        return outs.isEmpty() ? null : outs.getFirst();
    }

    /**
     * A decoded input: its JSON data, or the size of its binary data, which is read once the JSON is done.
     *
     * @param binarySize {@code binary_data_size}, or -1 when the data is JSON
     */
    private record Input(String name, String datatype, long[] shape, long count, double[] json, long binarySize) {
        /** The values: the JSON data, or the binary bytes after the JSON, which must be exactly the declared size. */
        double[] values(byte[] body, int jsonLength, boolean hasBinaryPart) {
            int binaryBytes = body.length - jsonLength;
            if (binarySize < 0) {
                if (hasBinaryPart && binaryBytes != 0) {
                    throw new InferJsonException("the body has " + binaryBytes + " bytes after the JSON, but no input declares \"binary_data_size\"");
                }
                return json;
            }
            if (!hasBinaryPart) {
                throw new InferJsonException("input '" + name + "' declares \"binary_data_size\" but the request has no " + BinaryTensorData.HEADER
                        + " header");
            }
            if (binarySize != binaryBytes) {
                throw new InferJsonException("input '" + name + "' declares " + binarySize + " bytes of binary data, the body has " + binaryBytes
                        + " after the JSON");
            }
            return BinaryTensorData.decode(body, jsonLength, (int) count, datatype);
        }
    }

    private static Input input(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) throw new InferJsonException("each input must be an object");
        String name = null, datatype = null;
        long[] shape = null;
        DoubleList data = null;
        long binarySize = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "name" -> {
                    if (v != JsonToken.VALUE_STRING) throw new InferJsonException("the input's \"name\" must be a string");
                    name = p.getText();
                }
                case "datatype" -> {
                    if (v != JsonToken.VALUE_STRING) throw new InferJsonException("the input's \"datatype\" must be a string");
                    datatype = p.getText();
                }
                case "shape" -> shape = shape(p, v);
                case "data" -> {
                    data = new DoubleList();
                    values(p, v, data, 0);
                }
                case "parameters" -> binarySize = inputParameters(p, v);
                default -> throw new InferJsonException("unknown input field \"" + field + "\"");
            }
        }
        if (name == null || datatype == null || shape == null || (data == null) == (binarySize < 0)) {
            throw new InferJsonException("an input needs \"name\", \"shape\", \"datatype\" and either \"data\" or \"parameters\": "
                    + "{\"binary_data_size\": bytes}");
        }
        if (!NUMERIC.contains(datatype)) throw new InferJsonException("input '" + name + "': datatype " + datatype + " is not a numeric type " + NUMERIC);
        long n = 1; // dims are < 2^31 and at most 8: the product fits in a long until it passes 2^62, where it stops
        for (long d : shape) n = n > (1L << 62) / Math.max(d, 1) ? Long.MAX_VALUE : n * d;
        String count = n == Long.MAX_VALUE ? "over 2^62" : Long.toString(n);
        if (data != null && n != data.size) {
            throw new InferJsonException("input '" + name + "': shape " + Arrays.toString(shape) + " holds " + count + " values, the data has " + data.size);
        }
        if (data == null) {
            int size = BinaryTensorData.elementSize(datatype);
            if (n > Long.MAX_VALUE / size || n * size != binarySize) {
                throw new InferJsonException("input '" + name + "': shape " + Arrays.toString(shape) + " of " + datatype + " holds " + count
                        + " values of " + size + " bytes, \"binary_data_size\" says " + binarySize + " bytes");
            }
        }
        return new Input(name, datatype, shape, n, data == null ? null : data.toArray(), binarySize);
    }

    /** An input's {@code "parameters"}: its {@code binary_data_size} (-1 when absent). */
    private static long inputParameters(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) throw new InferJsonException("the input's \"parameters\" must be an object");
        long size = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (f.equals("binary_data_size")) {
                if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER || p.getLongValue() < 0) {
                    throw new InferJsonException("\"binary_data_size\" must be an integer >= 0");
                }
                size = p.getLongValue();
            } else {
                p.skipChildren();
            }
        }
        return size;
    }

    private static long[] shape(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_ARRAY) throw new InferJsonException("the input's \"shape\" must be an array of integers");
        List<Long> dims = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER || p.getLongValue() < 0
                    || p.getLongValue() > Integer.MAX_VALUE) {
                throw new InferJsonException("the input's \"shape\" must hold integers in [0, 2^31)");
            }
            if (dims.size() == 8) throw new InferJsonException("the input's \"shape\" has more than 8 axes");
            dims.add(p.getLongValue());
        }
        return dims.stream().mapToLong(Long::longValue).toArray();
    }

    /** Flat or nested arrays of numbers, in row-major order. */
    private static void values(JsonParser p, JsonToken v, DoubleList out, int depth) throws IOException {
        if (v == JsonToken.START_ARRAY) {
            if (depth > 8) throw new InferJsonException("the input's \"data\" is nested deeper than 8 levels");
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t == null) throw new InferJsonException("malformed JSON: the \"data\" array is not closed");
                values(p, t, out, depth + 1);
            }
        } else if (v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
            out.add(p.getDoubleValue());
        } else {
            throw new InferJsonException("the input's \"data\" must hold numbers, got " + v);
        }
    }

    /** A growable double array: allocation grows with what was read, never with what a header claims. */
    private static final class DoubleList {
        double[] a = new double[64];
        int size;

        void add(double v) {
            if (size == a.length) a = Arrays.copyOf(a, Math.min(Integer.MAX_VALUE - 8, a.length * 2));
            a[size++] = v;
        }

        double[] toArray() { return Arrays.copyOf(a, size); }
    }

    /** The OIP datatype name of a JBurn dtype. */
    static String datatype(DType t) {
        return switch (t) {
            case F32 -> "FP32";
            case F64 -> "FP64";
            case F16 -> "FP16";
            case BF16 -> "BF16";
            case S8 -> "INT8";
            case S16 -> "INT16";
            case S32 -> "INT32";
            case S64 -> "INT64";
            case U8 -> "UINT8";
            case U16 -> "UINT16";
            case U32 -> "UINT32";
            case U64 -> "UINT64";
            case PRED -> "BOOL";
        };
    }

    /** The datatype an output of {@code t} is answered in: FP32 for every float type but FP64 (JSON has no 16-bit floats). */
    static String responseDatatype(DType t) { return t.isFloat() && t != DType.F64 ? "FP32" : datatype(t); }

    /**
     * A response body: the JSON only ({@code jsonLength} -1), or the JSON of {@code jsonLength} bytes followed by the
     * binary data (then the {@code Inference-Header-Content-Length} header must say {@code jsonLength}).
     */
    record Body(byte[] bytes, int jsonLength) {
        boolean hasBinary() { return jsonLength >= 0; }
    }

    /** The response to a request: one output, with its shape and its data as JSON, or as binary data after the JSON. */
    static Body response(String model, String id, String outputName, Tensor out, boolean binary) {
        try {
            String type = responseDatatype(out.dtype());
            byte[] raw = binary ? BinaryTensorData.encode(out, type) : null;
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (JsonGenerator g = JSON.createGenerator(b)) {
                g.writeStartObject();
                g.writeStringField("model_name", model);
                if (id != null) g.writeStringField("id", id);
                g.writeArrayFieldStart("outputs");
                g.writeStartObject();
                g.writeStringField("name", outputName);
                g.writeStringField("datatype", type);
                g.writeArrayFieldStart("shape");
                for (int d : out.shape().dims()) g.writeNumber(d);
                g.writeEndArray();
                if (binary) {
                    g.writeObjectFieldStart("parameters");
                    g.writeNumberField("binary_data_size", raw.length);
                    g.writeEndObject();
                } else {
                    g.writeArrayFieldStart("data");
                    if (type.equals("FP32")) {
                        for (float v : out.toFloatArray()) g.writeNumber(v);
                    } else if (type.equals("FP64")) {
                        for (double v : out.toDoubleArray()) g.writeNumber(v);
                    } else {
                        for (long v : out.toLongArray()) g.writeNumber(v);
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
                g.writeEndArray();
                g.writeEndObject();
            }
            int jsonLength = raw == null ? -1 : b.size();
            if (raw != null) b.write(raw);
            return new Body(b.toByteArray(), jsonLength);
        } catch (IOException e) {
            throw new IllegalStateException("writing JSON to memory failed", e);
        }
    }

    /** {@code {"error": message}}. */
    static byte[] error(String message) { return object("error", message); }

    /** A one-field JSON object. */
    static byte[] object(String field, Object value) {
        try {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (JsonGenerator g = JSON.createGenerator(b)) {
                g.writeStartObject();
                g.writeObjectField(field, value);
                g.writeEndObject();
            }
            return b.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("writing JSON to memory failed", e);
        }
    }
}
