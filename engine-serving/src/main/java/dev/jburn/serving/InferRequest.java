package dev.jburn.serving;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;

/**
 * A decoded Open Inference Protocol v2 request: its id, its one input as a tensor, and its timeout.
 *
 * @param id        the request's {@code "id"}, echoed in the response (null when absent)
 * @param inputName the input's {@code "name"}
 * @param shape     the declared shape
 * @param values    the data, row-major, as doubles
 * @param timeoutMs {@code "parameters": {"timeout_ms": n}}, or -1 for the server's default
 * @param outputName the output asked for in {@code "outputs"}, or null when none was named (all outputs)
 * @param binaryOutput whether the output goes back as binary tensor data ({@code "binary_data": true} on it, or
 *                   {@code "binary_data_output": true} in the request's parameters)
 */
record InferRequest(String id, String inputName, long[] shape, double[] values, long timeoutMs, String outputName, boolean binaryOutput) {
    /** The input as a tensor of {@code dtype}. */
    Tensor tensor(DType dtype) {
        int[] dims = new int[shape.length];
        for (int i = 0; i < dims.length; i++) dims[i] = (int) shape[i];
        try (Tensor d = Tensor.of(values)) {
            Tensor r = d.reshape(Shape.of(dims));
            if (dtype == DType.F64) return r;
            try (r) {
                return r.asType(dtype);
            }
        }
    }
}
