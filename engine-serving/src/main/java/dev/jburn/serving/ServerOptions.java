package dev.jburn.serving;

import dev.jburn.JBurnException;

import java.time.Duration;

/**
 * Settings of an {@link InferenceServer}.
 *
 * @param host           the address to bind (default 127.0.0.1: loopback only)
 * @param port           the port (0: any free port)
 * @param maxBodyBytes   larger request bodies are answered 413 (default 16 MiB)
 * @param requestTimeout the deadline of a request that gives none ({@code parameters.timeout_ms}; default 30 s)
 * @param drainTimeout   how long {@link InferenceServer#close()} waits for requests in flight (default 10 s)
 */
public record ServerOptions(String host, int port, long maxBodyBytes, Duration requestTimeout, Duration drainTimeout) {
    public ServerOptions {
        if (host == null || host.isBlank()) throw new JBurnException("serve", "the host must not be empty");
        if (port < 0 || port > 65535) throw new JBurnException("serve", "the port must be in [0, 65535], got " + port);
        if (maxBodyBytes < 1) throw new JBurnException("serve", "the body limit must be >= 1 byte, got " + maxBodyBytes);
        if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new JBurnException("serve", "the request timeout must be > 0, got " + requestTimeout);
        }
        if (drainTimeout == null || drainTimeout.isNegative()) throw new JBurnException("serve", "the drain timeout must be >= 0, got " + drainTimeout);
    }

    /** 127.0.0.1, any free port, 16 MiB bodies, 30 s request timeout, 10 s drain. */
    public static ServerOptions defaults() { return new ServerOptions("127.0.0.1", 0, 16 << 20, Duration.ofSeconds(30), Duration.ofSeconds(10)); }

    public ServerOptions withHost(String h) { return new ServerOptions(h, port, maxBodyBytes, requestTimeout, drainTimeout); }

    public ServerOptions withPort(int p) { return new ServerOptions(host, p, maxBodyBytes, requestTimeout, drainTimeout); }

    public ServerOptions withMaxBodyBytes(long n) { return new ServerOptions(host, port, n, requestTimeout, drainTimeout); }

    public ServerOptions withRequestTimeout(Duration d) { return new ServerOptions(host, port, maxBodyBytes, d, drainTimeout); }

    public ServerOptions withDrainTimeout(Duration d) { return new ServerOptions(host, port, maxBodyBytes, requestTimeout, d); }
}
