package dev.jburn.serving;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Jazzer fuzz targets of the request decoder: any bytes give a request or an {@link InferJson.InferJsonException}
 * (the server's 400), never another exception or an allocation a hostile shape or size asks for: a decoded request
 * holds at most one value per byte of its body. {@code mvn test} replays the seeds under
 * {@code InferJsonFuzzTestInputs/<target>}; {@code JAZZER_FUZZ=1} fuzzes for {@code maxDuration}.
 */
class InferJsonFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void fuzzDecode(byte[] body) {
        try {
            check(InferJson.decode(body), body.length);
        } catch (InferJson.InferJsonException expected) {
            // a clean 400
        }
    }

    /**
     * The binary tensor data extension: the first two bytes (little-endian) are the {@code Inference-Header-Content-Length}
     * header, the rest is the body (JSON, then the binary data).
     */
    @FuzzTest(maxDuration = "30s")
    void fuzzDecodeBinary(byte[] input) {
        if (input.length < 2) return;
        String header = Integer.toString((input[0] & 0xff) | (input[1] & 0xff) << 8);
        byte[] body = java.util.Arrays.copyOfRange(input, 2, input.length);
        try {
            check(InferJson.decode(body, header), body.length);
        } catch (InferJson.InferJsonException expected) {
            // a clean 400
        }
    }

    private static void check(InferRequest r, int bodyLength) {
        long n = 1;
        for (long d : r.shape()) n *= d;
        if (n != r.values().length) throw new AssertionError("a decoded request's shape and data disagree");
        if (n > bodyLength) throw new AssertionError("a request of " + bodyLength + " bytes decoded to " + n + " values");
    }
}
