package dev.jburn.dist;

import dev.jburn.JBurnException;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link Store} over TCP, as torchrun's: rank 0 {@link #serve serves} it on {@code MASTER_ADDR:MASTER_PORT},
 * every rank (rank 0 too, or it uses the server directly) {@link #connect connects}. One request at a time per
 * connection: an op byte, the key, then the value (set) or a timeout (get, answered when the key is set). Values
 * are at most 1 GiB; a malformed request closes its connection. No authentication: bind it to loopback or a
 * private network, as torchrun's store.
 *
 * <pre>{@code
 * try (TcpStore server = TcpStore.serve("127.0.0.1", 29500);               // rank 0
 *      Store client = TcpStore.connect("127.0.0.1", 29500, Duration.ofMinutes(1))) {
 *     client.set("x", new byte[] {1});
 * }
 * }</pre>
 */
public final class TcpStore implements Store {
    private static final int SET = 1, GET = 2, DELETE = 3;
    private static final int MAX_VALUE = 1 << 30;

    private final MemoryStore values = new MemoryStore();
    private final ServerSocket socket;
    private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private TcpStore(ServerSocket socket) {
        this.socket = socket;
        Thread t = new Thread(this::accept, "jburn-tcp-store-" + socket.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    /** A server on {@code host:port} ({@code port} 0: a free port, see {@link #port()}); the server is a store itself. */
    public static TcpStore serve(String host, int port) {
        if (host == null || port < 0 || port > 65535) throw new JBurnException("tcpStore", "a host and a port in [0, 65535] are required, got " + host + ":" + port);
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
            return new TcpStore(s);
        } catch (IOException e) {
            throw new JBurnException("tcpStore", "cannot listen on " + host + ":" + port + ": " + e.getMessage());
        }
    }

    /** A client of the server at {@code host:port}, retrying until {@code timeout} while the server is not up yet. */
    public static Store connect(String host, int port, Duration timeout) {
        if (host == null || timeout == null) throw new JBurnException("tcpStore", "a host and a timeout are required");
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException last = null;
        do {
            try {
                Socket s = new Socket();
                s.connect(new InetSocketAddress(host, port), (int) Math.max(1000, Math.min(10_000, timeout.toMillis())));
                s.setTcpNoDelay(true);
                return new Client(s);
            } catch (IOException e) {
                last = e;
                try { Thread.sleep(100); } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        } while (System.nanoTime() < deadline);
        throw new JBurnException("tcpStore", "no store at " + host + ":" + port + " within " + timeout + (last == null ? "" : ": " + last.getMessage()));
    }

    /** The port the server listens on. */
    public int port() { return socket.getLocalPort(); }

    @Override public void set(String key, byte[] value) { values.set(key, value); }

    @Override public byte[] get(String key, Duration timeout) { return values.get(key, timeout); }

    @Override public void delete(String key) { values.delete(key); }

    /** Number of keys held (communicators delete what every replica has read: this stays small). */
    public int keyCount() { return values.keyCount(); }

    @Override
    public void close() {
        closed = true;
        try { socket.close(); } catch (IOException ignored) { /* closing anyway */ }
        for (Socket c : clients) {
            try { c.close(); } catch (IOException ignored) { /* closing anyway */ }
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket c = socket.accept();
                c.setTcpNoDelay(true);
                clients.add(c);
                Thread.ofVirtual().name("jburn-tcp-store-client").start(() -> serve(c));
            } catch (IOException e) {
                if (!closed) System.getLogger("dev.jburn.dist").log(System.Logger.Level.WARNING, "tcp store accept failed: " + e.getMessage());
                return;
            }
        }
    }

    private void serve(Socket c) {
        try (c; DataInputStream in = new DataInputStream(new BufferedInputStream(c.getInputStream()));
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(c.getOutputStream()))) {
            while (!closed) {
                int op = in.read();
                if (op < 0) return;
                String key = in.readUTF();
                switch (op) {
                    case SET -> {
                        values.set(key, readValue(in));
                        out.writeByte(0);
                    }
                    case GET -> {
                        long millis = in.readLong();
                        byte[] v;
                        try {
                            v = values.get(key, Duration.ofMillis(Math.max(0, millis)));
                        } catch (JBurnException e) {
                            v = null;
                        }
                        out.writeByte(v == null ? 1 : 0);
                        if (v != null) {
                            out.writeInt(v.length);
                            out.write(v);
                        }
                    }
                    case DELETE -> {
                        values.delete(key);
                        out.writeByte(0);
                    }
                    default -> { return; } // not our protocol: drop the connection
                }
                out.flush();
            }
        } catch (IOException e) {
            // the client went away; its keys stay
        } finally {
            clients.remove(c);
        }
    }

    static byte[] readValue(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_VALUE) throw new IOException("value of " + n + " bytes");
        return in.readNBytes(n);
    }

    /** A connection to a server; one request at a time. */
    private static final class Client implements Store {
        private final Socket socket;
        private final DataInputStream in;
        private final DataOutputStream out;

        Client(Socket s) throws IOException {
            this.socket = s;
            this.in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            this.out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
        }

        @Override
        public synchronized void set(String key, byte[] value) {
            if (key == null || value == null) throw new JBurnException("store", "key and value are required");
            if (value.length > MAX_VALUE) throw new JBurnException("store", "value of " + value.length + " bytes for key '" + key + "' exceeds 1 GiB");
            call("set", key, () -> {
                out.writeByte(SET);
                out.writeUTF(key);
                out.writeInt(value.length);
                out.write(value);
                out.flush();
                in.readByte();
                return null;
            });
        }

        @Override
        public synchronized byte[] get(String key, Duration timeout) {
            if (key == null || timeout == null) throw new JBurnException("store", "key and timeout are required");
            byte[] v = call("get", key, () -> {
                out.writeByte(GET);
                out.writeUTF(key);
                out.writeLong(timeout.toMillis());
                out.flush();
                if (in.readByte() != 0) return null;
                return readValue(in);
            });
            if (v == null) throw new JBurnException("store", "key '" + key + "' not set within " + timeout);
            return v;
        }

        @Override
        public synchronized void delete(String key) {
            call("delete", key, () -> {
                out.writeByte(DELETE);
                out.writeUTF(key);
                out.flush();
                in.readByte();
                return null;
            });
        }

        private interface Io<T> { T run() throws IOException; }

        private <T> T call(String op, String key, Io<T> io) {
            try {
                return io.run();
            } catch (IOException e) {
                throw new JBurnException("store", op + " '" + key + "' failed: the store at " + socket.getRemoteSocketAddress()
                        + " is gone (" + e.getMessage() + ")");
            }
        }

        @Override
        public void close() {
            try { socket.close(); } catch (IOException ignored) { /* closing anyway */ }
        }
    }
}
