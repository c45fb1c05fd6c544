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

    /** Decodes a request body. */
    static InferRequest decode(byte[] body) {
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new InferJsonException("the body must be a JSON object");
            String id = null;
            InferRequest input = null;
            long timeout = -1;
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
                        List<InferRequest> ins = new ArrayList<>();
                        while (p.nextToken() != JsonToken.END_ARRAY) ins.add(input(p));
                        if (ins.size() != 1) throw new InferJsonException("\"inputs\" must hold exactly one input, got " + ins.size());
                        input = ins.getFirst();
                    }
                    case "parameters" -> timeout = parameters(p, v);
                    default -> p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT) throw new InferJsonException("malformed JSON");
            if (p.nextToken() != null) throw new InferJsonException("trailing content after the JSON object");
            if (input == null) throw new InferJsonException("the request has no \"inputs\"");
            return new InferRequest(id, input.inputName(), input.shape(), input.values(), timeout);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new InferJsonException("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InferJsonException("malformed JSON: " + e.getMessage());
        }
    }

    private static long parameters(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) throw new InferJsonException("\"parameters\" must be an object");
        long timeout = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (f.equals("timeout_ms")) {
                if (t != JsonToken.VALUE_NUMBER_INT || p.getLongValue() < 0) throw new InferJsonException("\"timeout_ms\" must be an integer >= 0");
                timeout = p.getLongValue();
            } else {
                p.skipChildren();
            }
        }
        return timeout;
    }

    private static InferRequest input(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) throw new InferJsonException("each input must be an object");
        String name = null, datatype = null;
        long[] shape = null;
        DoubleList data = null;
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
                case "parameters" -> p.skipChildren();
                default -> throw new InferJsonException("unknown input field \"" + field + "\"");
            }
        }
        if (name == null || datatype == null || shape == null || data == null) {
            throw new InferJsonException("an input needs \"name\", \"shape\", \"datatype\" and \"data\"");
        }
        if (!NUMERIC.contains(datatype)) throw new InferJsonException("input '" + name + "': datatype " + datatype + " is not a numeric type " + NUMERIC);
        long n = 1; // dims are < 2^31 and at most 8: the product fits in a long until it passes 2^62, where it stops
        for (long d : shape) n = n > (1L << 62) / Math.max(d, 1) ? Long.MAX_VALUE : n * d;
        if (n != data.size) {
            throw new InferJsonException("input '" + name + "': shape " + Arrays.toString(shape) + " holds " + (n == Long.MAX_VALUE ? "over 2^62" : n)
                    + " values, the data has " + data.size);
        }
        return new InferRequest(null, name, shape, data.toArray(), -1);
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

    /** The response to a request: one output, with its shape and flat data. */
    static byte[] response(String model, String id, String outputName, Tensor out) {
        try {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (JsonGenerator g = JSON.createGenerator(b)) {
                g.writeStartObject();
                g.writeStringField("model_name", model);
                if (id != null) g.writeStringField("id", id);
                g.writeArrayFieldStart("outputs");
                g.writeStartObject();
                g.writeStringField("name", outputName);
                boolean isFloat = out.dtype().isFloat();
                g.writeStringField("datatype", isFloat && out.dtype() != DType.F64 ? "FP32" : datatype(out.dtype()));
                g.writeArrayFieldStart("shape");
                for (int d : out.shape().dims()) g.writeNumber(d);
                g.writeEndArray();
                g.writeArrayFieldStart("data");
                if (isFloat && out.dtype() != DType.F64) {
                    for (float v : out.toFloatArray()) g.writeNumber(v);
                } else if (isFloat) {
                    for (double v : out.toDoubleArray()) g.writeNumber(v);
                } else {
                    for (long v : out.toLongArray()) g.writeNumber(v);
                }
                g.writeEndArray();
                g.writeEndObject();
                g.writeEndArray();
                g.writeEndObject();
            }
            return b.toByteArray();
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
