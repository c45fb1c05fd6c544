package dev.jburn.serving;

import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.jburn.serving.ServingTest.MODEL;
import static dev.jburn.serving.ServingTest.STATE;
import static org.junit.jupiter.api.Assertions.*;

/** The Open Inference Protocol over loopback HTTP: endpoints, status codes, a load test and fault tests. */
class HttpServingTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final Pattern DATA = Pattern.compile("\"data\":\\[([^\\]]*)\\]");

    static String body(float[] row) {
        StringBuilder b = new StringBuilder("{\"id\":\"r\",\"inputs\":[{\"name\":\"x\",\"shape\":[1,4],\"datatype\":\"FP32\",\"data\":[");
        for (int i = 0; i < row.length; i++) b.append(i == 0 ? "" : ",").append(row[i]);
        return b.append("]}]}").toString();
    }

    static HttpResponse<String> post(URI base, String path, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(URI base, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    static float[] data(String json) {
        Matcher m = DATA.matcher(json);
        assertTrue(m.find(), json);
        String[] parts = m.group(1).split(",");
        float[] out = new float[parts.length];
        for (int i = 0; i < parts.length; i++) out[i] = Float.parseFloat(parts[i]);
        return out;
    }

    /** A POST of {@code json} followed by {@code binary}, with the header that says where the JSON ends (absent: null). */
    static HttpResponse<byte[]> postBinary(URI base, String path, String json, byte[] binary, String headerLength) throws Exception {
        byte[] j = json.getBytes(StandardCharsets.UTF_8), body = Arrays.copyOf(j, j.length + binary.length);
        System.arraycopy(binary, 0, body, j.length, binary.length);
        HttpRequest.Builder r = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (headerLength != null) r.header("Inference-Header-Content-Length", headerLength);
        return CLIENT.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static byte[] littleEndian(float[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(values);
        return b.array();
    }

    @Test
    void binaryTensorDataGoesInAfterTheJsonAndComesBackWhenAsked() throws Exception {
        try (InferenceServer server = serve(Serving.of(MODEL, STATE).batchTimeout(Duration.ofMillis(1)).start())) {
            URI u = server.uri();
            assertTrue(get(u, "/v2").body().contains("\"binary_tensor_data\""));
            float[] rows = {0.5f, -1f, 2f, 0.25f, 1f, 2f, 3f, 4f};
            float[] want = MODEL.predict(STATE, Tensor.of(new float[][] {Arrays.copyOfRange(rows, 0, 4), Arrays.copyOfRange(rows, 4, 8)})).toFloatArray();
            String json = "{\"id\":\"b\",\"inputs\":[{\"name\":\"x\",\"shape\":[2,4],\"datatype\":\"FP32\",\"parameters\":{\"binary_data_size\":32}}],"
                    + "\"parameters\":{\"binary_data_output\":true}}";
            HttpResponse<byte[]> r = postBinary(u, "/v2/models/tiny/infer", json, littleEndian(rows), Integer.toString(json.length()));
            assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
            int jsonLength = Integer.parseInt(r.headers().firstValue("Inference-Header-Content-Length").orElseThrow());
            String head = new String(r.body(), 0, jsonLength, StandardCharsets.UTF_8);
            assertTrue(head.contains("\"binary_data_size\":24") && head.contains("\"shape\":[2,3]") && !head.contains("\"data\""), head);
            assertEquals(jsonLength + 24, r.body().length);
            float[] got = new float[6];
            ByteBuffer.wrap(r.body(), jsonLength, 24).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(got);
            assertArrayEquals(want, got, 1e-6f);

            // binary in, JSON out; FP16 input bytes; the output asked for by name, not binary
            ByteBuffer half = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            for (float v : rows) half.putShort(Float.floatToFloat16(v));
            String j16 = "{\"inputs\":[{\"name\":\"x\",\"shape\":[2,4],\"datatype\":\"FP16\",\"parameters\":{\"binary_data_size\":16}}],"
                    + "\"outputs\":[{\"name\":\"" + MODEL.outputNames().getFirst() + "\",\"parameters\":{\"binary_data\":false}}],"
                    + "\"parameters\":{\"binary_data_output\":true}}";
            HttpResponse<byte[]> r16 = postBinary(u, "/v2/models/tiny/infer", j16, half.array(), Integer.toString(j16.length()));
            String text = new String(r16.body(), StandardCharsets.UTF_8);
            assertEquals(200, r16.statusCode(), text);
            assertTrue(r16.headers().firstValue("Inference-Header-Content-Length").isEmpty(), "the output's binary_data: false wins");
            assertArrayEquals(want, data(text), 1e-6f, "these rows are exact in FP16");
        }
    }

    @Test
    void hostileBinarySizesAreA400BeforeAnythingIsAllocated() throws Exception {
        try (InferenceServer server = serve(Serving.of(MODEL, STATE).batchTimeout(Duration.ofMillis(1)).start())) {
            URI u = server.uri();
            byte[] four = littleEndian(new float[] {1, 2, 3, 4});
            String ok = input("[1,4]", "FP32", "16");
            String[][] cases = { // json, header (null: none), bytes after the JSON (16 unless "0"), what the answer says
                    {input("[1,4]", "FP32", "4611686018427387904"), "L", "16", "says 4611686018427387904 bytes"},
                    {input("[1000000000,4]", "FP32", "16000000000"), "L", "16", "declares 16000000000 bytes of binary data, the body has 16"},
                    {input("[1,4]", "FP32", "12"), "L", "16", "says 12 bytes"},
                    {input("[1,4]", "FP32", "-1"), "L", "16", "must be an integer >= 0"},
                    {input("[1,4]", "FP32", "1e3"), "L", "16", "must be an integer >= 0"},
                    {ok, "99999", "16", "says 99999 bytes of JSON"},
                    {ok, "-5", "16", "says -5 bytes of JSON"},
                    {ok, "abc", "16", "must be an integer"},
                    {ok, null, "16", "JSON"}, // without the header the bytes are read as JSON
                    {ok.replace("\"parameters\"", "\"data\":[1,2,3,4],\"parameters\""), "L", "16", "and either"},
                    {"{\"inputs\":[{\"name\":\"x\",\"shape\":[1,4],\"datatype\":\"FP32\",\"data\":[1,2,3,4]}]}", "L", "16", "no input declares"},
                    {input("[1,4]", "FP32", "16"), "L", "0", "the body has 0 after the JSON"},
                    {input("[1,4]", "BYTES", "16"), "L", "16", "datatype BYTES"},
                    {ok.replace("]}", "],\"outputs\":[{\"name\":\"nope\"}]}"), "L", "16", "has no output 'nope'"},
            };
            for (String[] c : cases) {
                String header = "L".equals(c[1]) ? Integer.toString(c[0].length()) : c[1];
                HttpResponse<byte[]> r = postBinary(u, "/v2/models/tiny/infer", c[0], c[2].equals("0") ? new byte[0] : four, header);
                String text = new String(r.body(), StandardCharsets.UTF_8);
                assertEquals(400, r.statusCode(), c[0] + " -> " + text);
                assertTrue(text.contains(c[3]), c[0] + " -> " + text);
            }
            HttpResponse<byte[]> fine = postBinary(u, "/v2/models/tiny/infer", ok, four, Integer.toString(ok.length()));
            assertEquals(200, fine.statusCode(), "the server keeps serving");
        }
    }

    private static String input(String shape, String datatype, String binarySize) {
        return "{\"inputs\":[{\"name\":\"x\",\"shape\":" + shape + ",\"datatype\":\"" + datatype + "\",\"parameters\":{\"binary_data_size\":" + binarySize + "}}]}";
    }

    private static InferenceServer serve(Serving s) { return InferenceServer.start(List.of(s), ServerOptions.defaults().withMaxBodyBytes(4096)); }

    @Test
    void theEndpointsAnswerWithTheProtocolsStatusCodes() throws Exception {
        try (InferenceServer server = serve(Serving.of(MODEL, STATE).batchTimeout(Duration.ofMillis(1)).start())) {
            URI u = server.uri();
            assertEquals(200, get(u, "/v2/health/live").statusCode());
            assertEquals(200, get(u, "/v2/health/ready").statusCode());
            HttpResponse<String> meta = get(u, "/v2/models/tiny");
            assertEquals(200, meta.statusCode());
            assertTrue(meta.body().contains("\"inputs\":[{\"name\":\"x\",\"datatype\":\"FP32\",\"shape\":[-1,4]}]"), meta.body());
            assertEquals(404, get(u, "/v2/models/nope").statusCode());
            assertEquals(404, post(u, "/v2/models/nope/infer", body(new float[4])).statusCode());
            assertEquals(405, get(u, "/v2/models/tiny/infer").statusCode());

            float[] row = {0.5f, -1f, 2f, 0.25f};
            HttpResponse<String> r = post(u, "/v2/models/tiny/infer", body(row));
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"id\":\"r\"") && r.body().contains("\"shape\":[1,3]"), r.body());
            assertArrayEquals(MODEL.predict(STATE, Tensor.of(new float[][] {row})).toFloatArray(), data(r.body()), 1e-6f);
            // nested data is read in row-major order
            String nested = "{\"inputs\":[{\"name\":\"x\",\"shape\":[2,4],\"datatype\":\"FP64\",\"data\":[[1,2,3,4],[5,6,7,8]]}]}";
            assertEquals(200, post(u, "/v2/models/tiny/infer", nested).statusCode());

            HttpResponse<String> m = get(u, "/metrics");
            assertEquals(200, m.statusCode());
            assertTrue(m.body().contains("jburn_serving_requests_total{model=\"tiny\"}"), m.body());
        }
    }

    @Test
    void badInputGetsAClean4xxAndTheServerKeepsServing() throws Exception {
        try (InferenceServer server = serve(Serving.of(MODEL, STATE).batchTimeout(Duration.ofMillis(1)).start())) {
            URI u = server.uri();
            String[][] cases = {
                    {"{not json", "malformed JSON"},
                    {"[]", "must be a JSON object"},
                    {"{\"inputs\":[{\"name\":\"x\",\"shape\":[1000000000,4],\"datatype\":\"FP32\",\"data\":[1,2,3,4]}]}", "holds 4000000000 values"},
                    {"{\"inputs\":[{\"name\":\"x\",\"shape\":[1,5],\"datatype\":\"FP32\",\"data\":[1,2,3,4,5]}]}", "expects shape [-1, 4]"},
                    {"{\"inputs\":[{\"name\":\"x\",\"shape\":[1,4],\"datatype\":\"BYTES\",\"data\":[1,2,3,4]}]}", "datatype BYTES"},
                    {"{\"inputs\":[{\"name\":\"x\",\"shape\":[1,4],\"datatype\":\"FP32\",\"data\":[1,\"a\",3,4]}]}", "must hold numbers"},
                    {"{\"inputs\":[{\"name\":\"y\",\"shape\":[1,4],\"datatype\":\"FP32\",\"data\":[1,2,3,4]}]}", "has no input 'y'"},
                    {"{\"inputs\":[{\"name\":\"x\",\"shape\":[1,4],\"datatype\":\"FP32\",\"data\":[1,2,3", "malformed JSON"},
                    {"{\"inputs\":[]}", "exactly one input"},
            };
            for (String[] c : cases) {
                HttpResponse<String> r = post(u, "/v2/models/tiny/infer", c[0]);
                assertEquals(400, r.statusCode(), c[0] + " -> " + r.body());
                assertTrue(r.body().contains(c[1]), c[0] + " -> " + r.body());
            }
            HttpResponse<String> big = post(u, "/v2/models/tiny/infer", "{\"pad\":\"" + "x".repeat(5000) + "\"}");
            assertEquals(413, big.statusCode());
            // a client that declares a body and disconnects half way
            try (Socket sock = new Socket(u.getHost(), u.getPort()); OutputStream o = sock.getOutputStream()) {
                o.write(("POST /v2/models/tiny/infer HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"inputs\":[").getBytes(StandardCharsets.US_ASCII));
                o.flush();
            }
            assertEquals(200, post(u, "/v2/models/tiny/infer", body(new float[] {1, 2, 3, 4})).statusCode(), "the server keeps serving");
        }
    }

    @Test
    void aFullQueueIs429AndAPassedDeadlineIs504() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        UnaryOperator<Tensor> slow = x -> {
            boolean warmUp = true;
            for (float v : x.toFloatArray()) warmUp &= v == 0f;
            if (!warmUp) {
                try {
                    gate.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            return MODEL.predict(STATE, x);
        };
        try (InferenceServer server = serve(Serving.of(MODEL, STATE, slow).batchSize(1).queueCapacity(1).batchTimeout(Duration.ZERO).start())) {
            URI u = server.uri();
            ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
            Future<HttpResponse<String>> blocked = pool.submit(() -> post(u, "/v2/models/tiny/infer", body(new float[] {1, 1, 1, 1})));
            Thread.sleep(300);
            Future<HttpResponse<String>> late = pool.submit(() -> post(u, "/v2/models/tiny/infer",
                    "{\"inputs\":[{\"name\":\"x\",\"shape\":[1,4],\"datatype\":\"FP32\",\"data\":[2,2,2,2]}],\"parameters\":{\"timeout_ms\":200}}"));
            Thread.sleep(100);
            HttpResponse<String> full = post(u, "/v2/models/tiny/infer", body(new float[] {3, 3, 3, 3}));
            assertEquals(429, full.statusCode(), full.body());
            assertEquals("1", full.headers().firstValue("Retry-After").orElse(null));
            assertEquals(504, late.get(30, TimeUnit.SECONDS).statusCode());
            gate.countDown();
            assertEquals(200, blocked.get(30, TimeUnit.SECONDS).statusCode());
            pool.shutdown();
        }
    }

    @Test
    void thirtyTwoClientsTimesFiveHundredRequestsAreEachAnsweredOnceAndCorrectly() throws Exception {
        int clients = 32, each = 500, capacity = 64;
        List<float[]> rows = new ArrayList<>();
        List<float[]> want = new ArrayList<>();
        try (Tensor x = ServingTest.rows(64, 3); Tensor y = MODEL.predict(STATE, x)) {
            float[] xs = x.toFloatArray(), ys = y.toFloatArray();
            for (int i = 0; i < 64; i++) {
                rows.add(Arrays.copyOfRange(xs, i * 4, i * 4 + 4));
                want.add(Arrays.copyOfRange(ys, i * 3, i * 3 + 3));
            }
        }
        Serving s = Serving.of(MODEL, STATE).batchSize(32).batchTimeout(Duration.ofMillis(2)).queueCapacity(capacity).start();
        try (InferenceServer server = serve(s)) {
            URI u = server.uri();
            ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
            AtomicInteger ok = new AtomicInteger(), wrong = new AtomicInteger(), failed = new AtomicInteger();
            ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        int k = (client * 7 + i) % 64;
                        long t0 = System.nanoTime();
                        try {
                            HttpResponse<String> r = post(u, "/v2/models/tiny/infer", body(rows.get(k)));
                            latencies.add(System.nanoTime() - t0);
                            if (r.statusCode() != 200) {
                                failed.incrementAndGet();
                                continue;
                            }
                            float[] got = data(r.body());
                            boolean same = got.length == 3;
                            for (int j = 0; same && j < 3; j++) same = Math.abs(got[j] - want.get(k)[j]) <= 1e-5f;
                            (same ? ok : wrong).incrementAndGet();
                        } catch (Exception e) {
                            failed.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get(300, TimeUnit.SECONDS);
            pool.shutdown();
            ServingMetrics.Snapshot m = s.metrics().snapshot();
            long[] l = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "load test: %d clients x %d requests: %d answered, p50 %.2f ms, p99 %.2f ms, %d batches, deepest queue %d%n",
                    clients, each, ok.get(), l[l.length / 2] / 1e6, l[(int) (l.length * 0.99)] / 1e6, m.batches(), m.maxQueueDepth());
            assertEquals(0, wrong.get(), "answers that were not their request's");
            assertEquals(0, failed.get(), "requests lost or refused");
            assertEquals(clients * each, ok.get());
            assertEquals(clients * each, m.answered());
            assertTrue(m.maxQueueDepth() <= capacity, "the queue stays within its bound");
            assertTrue(m.batches() < clients * each, "requests were batched");
        }
    }

    @Test
    void aShutdownDuringLoadLosesNothingItAccepted() throws Exception {
        Serving s = Serving.of(MODEL, STATE).batchSize(8).batchTimeout(Duration.ofMillis(2)).start();
        InferenceServer server = serve(s);
        URI u = server.uri();
        AtomicInteger ok = new AtomicInteger(), refused = new AtomicInteger(), other = new AtomicInteger();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            done.add(pool.submit(() -> {
                for (int i = 0; i < 200; i++) {
                    try {
                        int code = post(u, "/v2/models/tiny/infer", body(new float[] {1, 2, 3, 4})).statusCode();
                        (code == 200 ? ok : code == 503 ? refused : other).incrementAndGet();
                    } catch (java.io.IOException e) {
                        refused.incrementAndGet(); // the listener is gone: the request was never accepted
                    }
                }
                return null;
            }));
        }
        while (ok.get() < 50) Thread.sleep(5);
        server.close();
        for (Future<?> f : done) f.get(120, TimeUnit.SECONDS);
        pool.shutdown();
        assertEquals(0, other.get(), "every request was answered or refused, none failed");
        assertEquals(ok.get(), s.metrics().snapshot().answered(), "every accepted request was answered");
        assertTrue(refused.get() > 0, "requests after the drain began were refused");
    }
}
