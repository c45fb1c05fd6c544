package dev.jburn.serving;

import dev.jburn.Tensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The element encoding of the KServe / Triton binary tensor data extension: little-endian, row-major, no padding,
 * each element in its datatype's native size. The request's JSON says which inputs are binary
 * ({@code "parameters": {"binary_data_size": bytes}}) and the bytes follow the JSON in input order; the
 * {@code Inference-Header-Content-Length} header gives the JSON's length.
 */
final class BinaryTensorData {
    private BinaryTensorData() {}

    /** The name of the header that gives the length of the JSON before the binary data. */
    static final String HEADER = "Inference-Header-Content-Length";

    /** Bytes per element of an OIP numeric datatype. */
    static int elementSize(String datatype) {
        return switch (datatype) {
            case "INT8", "UINT8", "BOOL" -> 1;
            case "INT16", "UINT16", "FP16", "BF16" -> 2;
            case "INT32", "UINT32", "FP32" -> 4;
            case "INT64", "UINT64", "FP64" -> 8;
            default -> throw new IllegalArgumentException("no fixed element size: " + datatype);
        };
    }

    /** {@code n} elements of {@code datatype} at {@code body[offset..]}, as doubles (the caller checked the bytes are there). */
    static double[] decode(byte[] body, int offset, int n, String datatype) {
        ByteBuffer b = ByteBuffer.wrap(body, offset, n * elementSize(datatype)).order(ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = switch (datatype) {
                case "FP32" -> b.getFloat();
                case "FP64" -> b.getDouble();
                case "FP16" -> Float.float16ToFloat(b.getShort());
                case "BF16" -> Float.intBitsToFloat((b.getShort() & 0xffff) << 16);
                case "INT8" -> b.get();
                case "UINT8" -> b.get() & 0xff;
                case "INT16" -> b.getShort();
                case "UINT16" -> b.getShort() & 0xffff;
                case "INT32" -> b.getInt();
                case "UINT32" -> b.getInt() & 0xffffffffL;
                case "INT64" -> b.getLong();
                case "UINT64" -> unsigned(b.getLong());
                default -> throw new IllegalArgumentException("not a numeric datatype: " + datatype);
            };
        }
        return out;
    }

    private static double unsigned(long v) { return v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1); }

    /** {@code t}'s elements as {@code datatype} (one {@link InferJson#responseDatatype} gave for it), little-endian. */
    static byte[] encode(Tensor t, String datatype) {
        int size = elementSize(datatype);
        long count = t.shape().size();
        ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(count * size)).order(ByteOrder.LITTLE_ENDIAN);
        switch (datatype) {
            case "FP32" -> b.asFloatBuffer().put(t.toFloatArray());
            case "FP64" -> b.asDoubleBuffer().put(t.toDoubleArray());
            default -> {
                for (long v : t.toLongArray()) {
                    switch (size) {
                        case 1 -> b.put((byte) v);
                        case 2 -> b.putShort((short) v);
                        case 4 -> b.putInt((int) v);
                        default -> b.putLong(v);
                    }
                }
            }
        }
        return b.array();
    }
}
