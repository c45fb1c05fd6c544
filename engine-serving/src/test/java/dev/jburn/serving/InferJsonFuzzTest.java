package dev.jburn.serving;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Jazzer fuzz target of the request decoder: any bytes give a request or an {@link InferJson.InferJsonException}
 * (the server's 400), never another exception or an allocation a hostile shape asks for. {@code mvn test} replays
 * the seeds under {@code InferJsonFuzzTestInputs/fuzzDecode}; {@code JAZZER_FUZZ=1} fuzzes for {@code maxDuration}.
 */
class InferJsonFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void fuzzDecode(byte[] body) {
        try {
            InferRequest r = InferJson.decode(body);
            long n = 1;
            for (long d : r.shape()) n *= d;
            if (n != r.values().length) throw new AssertionError("a decoded request's shape and data disagree");
        } catch (InferJson.InferJsonException expected) {
            // a clean 400
        }
    }
}
