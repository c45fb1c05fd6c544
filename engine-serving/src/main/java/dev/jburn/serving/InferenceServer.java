package dev.jburn.serving;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The KServe Open Inference Protocol v2 over REST, for one or more {@link Serving}s, on the JDK's
 * {@code jdk.httpserver} with a virtual thread per request (no dependency beyond the JDK; loopback by default).
 *
 * <ul>
 *   <li>{@code GET /v2/health/live}, {@code GET /v2/health/ready} (ready once every model's buckets are compiled;
 *       503 while draining), {@code GET /v2/models/{name}} (metadata), {@code GET /v2/models/{name}/ready},
 *       {@code POST /v2/models/{name}/infer} (JSON tensors, or binary tensor data after the JSON with the
 *       {@code Inference-Header-Content-Length} header: the binary tensor data extension), {@code GET /metrics}
 *       (Prometheus text).</li>
 *   <li>400 malformed JSON or a wrong shape/dtype (the message names the input and the expected shape), 404 an
 *       unknown model or path, 405 a wrong method, 413 a body over the limit, 429 with {@code Retry-After} when the
 *       queue is full, 503 while not ready or draining, 504 when the request's deadline passed, 500 an engine fault.</li>
 * </ul>
 *
 * <pre>{@code
 * try (Serving s = Serving.of(model, state).start();
 *      InferenceServer server = InferenceServer.start(List.of(s), ServerOptions.defaults().withPort(8080))) {
 *     // curl -d '{"inputs":[{"name":"image","shape":[1,784],"datatype":"FP32","data":[...]}]}' localhost:8080/v2/models/mlp/infer
 * }
 * }</pre>
 */
public final class InferenceServer implements AutoCloseable {
    private final HttpServer http;
    private final ExecutorService executor;
    private final Map<String, Serving> models = new LinkedHashMap<>();
    private final ServerOptions options;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean draining;
    private volatile boolean closed;

    private InferenceServer(List<Serving> servings, ServerOptions options) throws IOException {
        this.options = options;
        for (Serving s : servings) {
            if (models.put(s.name(), s) != null) throw new JBurnException("serve", "two models are named '" + s.name() + "'");
        }
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        this.http = HttpServer.create(new InetSocketAddress(options.host(), options.port()), 128);
        http.setExecutor(executor);
        http.createContext("/", this::handle);
        http.start();
    }

    /** Serves {@code servings} (each under its model's name) until {@link #close()}. */
    public static InferenceServer start(List<Serving> servings, ServerOptions options) {
        if (servings == null || servings.isEmpty() || options == null) throw new JBurnException("serve", "give at least one serving and the options");
        try {
            return new InferenceServer(servings, options);
        } catch (IOException e) {
            throw new JBurnException("serve", "cannot listen on " + options.host() + ":" + options.port() + ": " + e.getMessage(), e);
        }
    }

    /** The bound port (the chosen one when the options said 0). */
    public int port() { return http.getAddress().getPort(); }

    /** {@code http://host:port}. */
    public URI uri() { return URI.create("http://" + options.host() + ":" + port()); }

    /** Whether every model is ready and the server is not draining. */
    public boolean isReady() {
        if (draining) return false;
        for (Serving s : models.values()) if (!s.isReady()) return false;
        return true;
    }

    /**
     * Drains and stops: readiness and new requests answer 503 at once, requests in flight are answered (waiting
     * at most the drain timeout), then the models' servings close and the listener stops.
     */
    @Override
    public void close() {
        if (closed) return;
        draining = true;
        long until = System.nanoTime() + options.drainTimeout().toNanos();
        while (inFlight.get() > 0 && System.nanoTime() < until) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        closed = true;
        for (Serving s : models.values()) s.close();
        http.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange ex) {
        inFlight.incrementAndGet();
        try (ex) {
            route(ex);
        } catch (IOException | RuntimeException e) {
            // the client went away (a truncated body, a closed socket) or writing failed: nothing to answer
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private void route(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath(), method = ex.getRequestMethod();
        if (path.equals("/v2/health/live")) {
            if (requireGet(ex, method)) send(ex, 200, InferJson.object("live", true));
        } else if (path.equals("/v2/health/ready")) {
            if (requireGet(ex, method)) send(ex, isReady() ? 200 : 503, InferJson.object("ready", isReady()));
        } else if (path.equals("/metrics")) {
            if (!requireGet(ex, method)) return;
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (Serving s : models.values()) s.metrics().writeText(b);
            ex.getResponseHeaders().set("Content-Type", ServingMetrics.contentType());
            sendRaw(ex, 200, b.toByteArray());
        } else if (path.equals("/v2")) {
            if (requireGet(ex, method)) send(ex, 200, ("{\"name\":\"jburn\",\"version\":\"0.1.0\",\"extensions\":[\"binary_tensor_data\"]}").getBytes(StandardCharsets.UTF_8));
        } else if (path.startsWith("/v2/models/")) {
            String[] parts = path.substring("/v2/models/".length()).split("/", -1);
            Serving s = models.get(parts[0]);
            if (s == null) {
                send(ex, 404, InferJson.error("unknown model '" + parts[0] + "'; this server has " + models.keySet()));
            } else if (parts.length == 1) {
                if (requireGet(ex, method)) send(ex, 200, metadata(s));
            } else if (parts.length == 2 && parts[1].equals("ready")) {
                boolean ready = s.isReady() && !draining;
                if (requireGet(ex, method)) send(ex, ready ? 200 : 503, ("{\"name\":\"" + s.name() + "\",\"ready\":" + ready + "}").getBytes(StandardCharsets.UTF_8));
            } else if (parts.length == 2 && parts[1].equals("infer")) {
                if (!method.equals("POST")) {
                    send(ex, 405, InferJson.error("use POST for " + path));
                } else {
                    infer(ex, s);
                }
            } else {
                send(ex, 404, InferJson.error("no such path: " + path));
            }
        } else {
            send(ex, 404, InferJson.error("no such path: " + path));
        }
    }

    private static boolean requireGet(HttpExchange ex, String method) throws IOException {
        if (method.equals("GET") || method.equals("HEAD")) return true;
        send(ex, 405, InferJson.error("use GET for " + ex.getRequestURI().getPath()));
        return false;
    }

    private static byte[] metadata(Serving s) {
        StringBuilder b = new StringBuilder("{\"name\":\"").append(s.name()).append("\",\"versions\":[\"1\"],\"platform\":\"jburn\",\"inputs\":[");
        tensorMetadata(b, s.inputName(), s.inputSpec());
        b.append("],\"outputs\":[");
        tensorMetadata(b, s.outputName(), s.outputSpec());
        return b.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void tensorMetadata(StringBuilder b, String name, dev.jburn.nn.TensorSpec spec) {
        b.append("{\"name\":\"").append(name).append("\",\"datatype\":\"").append(InferJson.datatype(spec.dtype())).append("\",\"shape\":[");
        int[] d = spec.shape().dims();
        for (int i = 0; i < d.length; i++) b.append(i == 0 ? "" : ",").append(d[i]);
        b.append("]}");
    }

    private void infer(HttpExchange ex, Serving s) throws IOException {
        if (draining || !s.isReady()) {
            send(ex, 503, InferJson.error("model '" + s.name() + "' is not ready" + (draining ? " (the server is draining)" : "")));
            return;
        }
        byte[] body = readBody(ex);
        if (body == null) return;
        InferRequest req;
        try {
            req = InferJson.decode(body, ex.getRequestHeaders().getFirst(BinaryTensorData.HEADER));
        } catch (InferJson.InferJsonException e) {
            send(ex, 400, InferJson.error(e.getMessage()));
            return;
        }
        if (!req.inputName().equals(s.inputName())) {
            send(ex, 400, InferJson.error("model '" + s.name() + "' has no input '" + req.inputName() + "'; its input is '" + s.inputName() + "'"));
            return;
        }
        if (req.outputName() != null && !req.outputName().equals(s.outputName())) {
            send(ex, 400, InferJson.error("model '" + s.name() + "' has no output '" + req.outputName() + "'; its output is '" + s.outputName() + "'"));
            return;
        }
        String shapeError = s.shapeError(req.shape());
        if (shapeError != null) {
            send(ex, 400, InferJson.error(shapeError));
            return;
        }
        Duration timeout = req.timeoutMs() >= 0 ? Duration.ofMillis(req.timeoutMs()) : options.requestTimeout();
        CompletableFuture<Tensor> f;
        try (Tensor x = req.tensor(s.inputSpec().dtype())) {
            f = s.submit(x, timeout);
        }
        Tensor y;
        try {
            // the serving answers timed-out requests itself; the extra second covers a batch running past the deadline
            y = f.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | CompletionException e) {
            sendError(ex, e.getCause());
            return;
        } catch (TimeoutException e) {
            f.cancel(true);
            send(ex, 504, InferJson.error("the request to model '" + s.name() + "' passed its deadline"));
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(ex, 503, InferJson.error("the server is shutting down"));
            return;
        }
        InferJson.Body response;
        try (y) {
            response = InferJson.response(s.name(), req.id(), s.outputName(), y, req.binaryOutput());
        }
        if (response.hasBinary()) {
            ex.getResponseHeaders().set(BinaryTensorData.HEADER, Integer.toString(response.jsonLength()));
            ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
            sendRaw(ex, 200, response.bytes());
        } else {
            send(ex, 200, response.bytes());
        }
    }

    private static void sendError(HttpExchange ex, Throwable cause) throws IOException {
        if (cause instanceof ServingException se) {
            int status = switch (se.kind()) {
                case BAD_INPUT -> 400;
                case REJECTED -> 429;
                case TIMED_OUT -> 504;
                case UNAVAILABLE -> 503;
                case FAILED -> 500;
            };
            if (status == 429) ex.getResponseHeaders().set("Retry-After", "1");
            send(ex, status, InferJson.error(se.getMessage()));
        } else {
            send(ex, 500, InferJson.error(String.valueOf(cause)));
        }
    }

    /** The body, or null after answering 413 when it is over the limit. */
    private byte[] readBody(HttpExchange ex) throws IOException {
        long limit = options.maxBodyBytes();
        String declared = ex.getRequestHeaders().getFirst("Content-Length");
        if (declared != null) {
            try {
                if (Long.parseLong(declared.trim()) > limit) {
                    send(ex, 413, InferJson.error("the body of " + declared + " bytes is over the limit of " + limit));
                    return null;
                }
            } catch (NumberFormatException e) {
                send(ex, 400, InferJson.error("bad Content-Length: " + declared));
                return null;
            }
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try (InputStream in = ex.getRequestBody()) {
            int n;
            while ((n = in.read(buf)) > 0) {
                if (b.size() + (long) n > limit) {
                    send(ex, 413, InferJson.error("the body is over the limit of " + limit + " bytes"));
                    return null;
                }
                b.write(buf, 0, n);
            }
        }
        return b.toByteArray();
    }

    private static void send(HttpExchange ex, int status, byte[] json) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/json");
        sendRaw(ex, status, json);
    }

    private static void sendRaw(HttpExchange ex, int status, byte[] body) throws IOException {
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        }
    }
}
