package dev.jburn.cli;

import dev.jburn.Engine;
import dev.jburn.io.ModelFile;
import dev.jburn.serving.InferenceServer;
import dev.jburn.serving.ServerOptions;
import dev.jburn.serving.Serving;
import dev.jburn.serving.ServingBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code jburn serve --model FILE}: the model over the Open Inference Protocol v2 (REST) until SIGTERM or Ctrl-C,
 * which drain: readiness turns 503, requests in flight are answered, then the process exits.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve a model file over HTTP (KServe Open Inference Protocol v2) with dynamic batching.",
                "Endpoints: GET /v2/health/live, /v2/health/ready, /v2/models/NAME, /metrics; POST /v2/models/NAME/infer.",
                "SIGTERM or Ctrl-C drains (ready turns 503, requests in flight are answered) and exits."})
final class ServeCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "The model file (e.g. jburn-out/mlp.jburn).")
    Path model;

    @Option(names = "--port", defaultValue = "8000", description = "The port (0: any free one). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "The address to bind. Default: ${DEFAULT-VALUE} (this machine only).")
    String host;

    @Option(names = "--engine", description = {"cpu, cuda or vulkan (default: the best available engine); a comma list (cpu,vulkan) serves",
            "on each, one worker per engine, with the model loaded on the first."})
    String engine;

    @Option(names = "--batch-size", defaultValue = "32", description = "Rows per batch at most. Default: ${DEFAULT-VALUE}.")
    int batchSize;

    @Option(names = "--batch-timeout-ms", defaultValue = "5", description = "How long a batch waits for more requests. Default: ${DEFAULT-VALUE}.")
    long batchTimeoutMs;

    @Option(names = "--queue", defaultValue = "1024", description = "Requests that may wait; past it the answer is 429. Default: ${DEFAULT-VALUE}.")
    int queue;

    @Option(names = "--request-timeout-ms", defaultValue = "30000", description = "Deadline of a request that gives none. Default: ${DEFAULT-VALUE}.")
    long requestTimeoutMs;

    @Option(names = "--max-body-bytes", defaultValue = "16777216", description = "Larger bodies are answered 413. Default: ${DEFAULT-VALUE}.")
    long maxBody;

    @Override public Integer call() throws InterruptedException {
        PrintStream o = Main.out(spec);
        Engine e = engine == null ? Engine.defaultEngine() : Engine.select(engine.split(",", -1)[0]);
        ModelFile.Loaded loaded = ModelFile.load(model);
        ServingBuilder settings = Serving.of(loaded.model(), loaded.state().to(e)).batchSize(batchSize).batchTimeout(Duration.ofMillis(batchTimeoutMs))
                .queueCapacity(queue);
        if (engine != null && engine.contains(",")) settings = settings.engines(engine);
        Serving serving = settings.start();
        InferenceServer server = InferenceServer.start(List.of(serving), ServerOptions.defaults().withHost(host).withPort(port)
                .withMaxBodyBytes(maxBody).withRequestTimeout(Duration.ofMillis(requestTimeoutMs)));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "jburn-serve-drain"));
        o.println("serving model '" + serving.name() + "' on engine" + (serving.engines().size() > 1 ? "s " : " ")
                + String.join(",", serving.engines().stream().map(Engine::name).toList()) + " at " + server.uri() + "/v2/models/" + serving.name()
                + " (buckets " + java.util.Arrays.toString(serving.buckets()) + " compiled; ready)");
        o.println("input '" + serving.inputName() + "' " + serving.inputSpec() + "; try: curl " + server.uri() + "/v2/models/" + serving.name());
        o.flush();
        stopped.await();
        return 0;
    }
}
