package dev.jburn.dist;

import dev.jburn.JBurnException;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts one process per device on this host, as {@code torchrun --nproc-per-node N}: each child gets
 * {@code RANK}, {@code WORLD_SIZE}, {@code LOCAL_RANK}, {@code MASTER_ADDR}, {@code MASTER_PORT} (and
 * {@code JBURN_CUDA_DEVICE} = its local rank) and finds the others with {@link Rendezvous#fromEnvironment()}.
 * Every child also gets {@link #NO_MULTICAST}, whatever the parent's environment says: NVLink multicast (NVLS)
 * can put a shared host's GPUs out of service, so it stays off in every process JBurn starts.
 *
 * <pre>{@code
 * int exit = Launcher.nproc(2).run(Launcher.java("com.example.TrainMain", "--epochs", "5"));
 * }</pre>
 *
 * From a shell: {@code java -cp ... dev.jburn.dist.Launcher --nproc 2 com.example.TrainMain --epochs 5}. When one
 * child fails the others are stopped, and the exit code is the first failure's.
 */
public final class Launcher {
    /** The variables that keep NVLink multicast off in NCCL, PyTorch's symmetric memory and NVSHMEM. */
    public static final Map<String, String> NO_MULTICAST = Map.of(
            "NCCL_NVLS_ENABLE", "0",
            "TORCH_SYMM_MEM_DISABLE_MULTICAST", "1",
            "NVSHMEM_DISABLE_NVLS", "1");

    private final int nproc, nnodes, nodeRank;
    private final String masterAddr;
    private final int masterPort;
    private final Map<String, String> extraEnv;
    private final Path logDir;

    private Launcher(int nproc, int nnodes, int nodeRank, String masterAddr, int masterPort, Map<String, String> extraEnv, Path logDir) {
        this.nproc = nproc;
        this.nnodes = nnodes;
        this.nodeRank = nodeRank;
        this.masterAddr = masterAddr;
        this.masterPort = masterPort;
        this.extraEnv = Map.copyOf(extraEnv);
        this.logDir = logDir;
    }

    /** {@code n} processes on this host, rendezvous on 127.0.0.1 at a free port. */
    public static Launcher nproc(int n) {
        if (n < 1) throw new JBurnException("launcher", "nproc must be >= 1, got " + n);
        return new Launcher(n, 1, 0, "127.0.0.1", 0, Map.of(), null);
    }

    /** The rendezvous address and port (0: a free one). */
    public Launcher master(String addr, int port) {
        if (addr == null || addr.isBlank() || port < 0 || port > 65535) throw new JBurnException("launcher", "a master address and a port in [0, 65535] are required, got " + addr + ":" + port);
        return new Launcher(nproc, nnodes, nodeRank, addr, port, extraEnv, logDir);
    }

    /**
     * This host is node {@code nodeRank} of {@code nnodes}, each running {@code nproc} processes (torchrun's
     * {@code --nnodes}/{@code --node-rank}): child {@code i} is rank {@code nodeRank * nproc + i}. Give every node
     * the same {@link #master} address (node 0's) and port.
     */
    public Launcher nodes(int nnodes, int nodeRank) {
        if (nnodes < 1 || nodeRank < 0 || nodeRank >= nnodes) throw new JBurnException("launcher", "node rank " + nodeRank + " outside " + nnodes + " nodes");
        return new Launcher(nproc, nnodes, nodeRank, masterAddr, masterPort, extraEnv, logDir);
    }

    /**
     * Also sets {@code env} in every child, {@code {rank}} in a value replaced by the child's rank (e.g.
     * {@code NCCL_HOSTID=host-{rank}}); these win over the launcher's {@code JBURN_CUDA_DEVICE}, the multicast
     * switches win over everything.
     */
    public Launcher environment(Map<String, String> env) {
        if (env == null) throw new JBurnException("launcher", "the environment must not be null");
        Map<String, String> m = new LinkedHashMap<>(extraEnv);
        m.putAll(env);
        return new Launcher(nproc, nnodes, nodeRank, masterAddr, masterPort, m, logDir);
    }

    /** Child {@code r}'s output to {@code dir/rank-r.log} instead of this process's output. */
    public Launcher logsTo(Path dir) { return new Launcher(nproc, nnodes, nodeRank, masterAddr, masterPort, extraEnv, dir); }

    /**
     * Child {@code local}'s environment: {@code parent}, {@code JBURN_CUDA_DEVICE} (the local rank), the extra
     * variables, the rendezvous variables, then {@link #NO_MULTICAST} (last, so nothing turns multicast back on).
     */
    public Map<String, String> childEnvironment(Map<String, String> parent, int local, int port) {
        Map<String, String> env = new LinkedHashMap<>(parent);
        int rank = nodeRank * nproc + local;
        env.put("JBURN_CUDA_DEVICE", Integer.toString(local));
        extraEnv.forEach((k, v) -> env.put(k, v.replace("{rank}", Integer.toString(rank))));
        env.put("RANK", Integer.toString(rank));
        env.put("LOCAL_RANK", Integer.toString(local));
        env.put("WORLD_SIZE", Integer.toString(nnodes * nproc));
        env.put("MASTER_ADDR", masterAddr);
        env.put("MASTER_PORT", Integer.toString(port));
        env.putAll(NO_MULTICAST);
        return env;
    }

    /** Starts the children running {@code command} and waits for them; returns 0 or the first failure's exit code. */
    public int run(List<String> command) {
        List<Process> ps = start(command);
        // A launcher stopped by a signal (a job's time limit) takes its children along instead of orphaning them.
        Thread reaper = new Thread(() -> ps.forEach(Process::destroy), "jburn-launcher-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            int failure = 0;
            boolean[] done = new boolean[ps.size()];
            int left = ps.size();
            while (left > 0) {
                for (int r = 0; r < ps.size(); r++) {
                    if (done[r] || !ps.get(r).waitFor(50, TimeUnit.MILLISECONDS)) continue;
                    done[r] = true;
                    left--;
                    int code = ps.get(r).exitValue();
                    if (code != 0 && failure == 0) {
                        failure = code;
                        ps.forEach(Process::destroy); // the others would wait for this rank until their timeout
                    }
                }
            }
            return failure;
        } catch (InterruptedException e) {
            ps.forEach(Process::destroyForcibly);
            Thread.currentThread().interrupt();
            throw new JBurnException("launcher", "interrupted; the children were stopped");
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
    }

    /** Starts the children running {@code command}; the caller waits for them. */
    public List<Process> start(List<String> command) {
        if (command == null || command.isEmpty()) throw new JBurnException("launcher", "the command must not be empty");
        if (nnodes > 1 && masterPort == 0) throw new JBurnException("launcher", "several nodes need a fixed master port (master(addr, port)), the same on every node");
        int port = masterPort != 0 ? masterPort : freePort();
        List<Process> ps = new ArrayList<>();
        try {
            for (int r = 0; r < nproc; r++) {
                ProcessBuilder b = new ProcessBuilder(command);
                Map<String, String> env = childEnvironment(b.environment(), r, port);
                b.environment().clear();
                b.environment().putAll(env);
                if (logDir != null) {
                    File log = logDir.resolve("rank-" + r + ".log").toFile();
                    b.redirectErrorStream(true).redirectOutput(log);
                } else {
                    b.inheritIO();
                }
                ps.add(b.start());
            }
            return ps;
        } catch (IOException e) {
            ps.forEach(Process::destroyForcibly);
            throw new JBurnException("launcher", "cannot start " + command.getFirst() + ": " + e.getMessage());
        }
    }

    /**
     * This JVM's java and class path running {@code mainClass args}, with the options JBurn needs (the Vector API
     * module, native access) and this JVM's {@code jburn.*} system properties.
     */
    public static List<String> java(String mainClass, String... args) {
        if (mainClass == null || mainClass.isBlank()) throw new JBurnException("launcher", "a main class is required");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--add-modules=jdk.incubator.vector");
        cmd.add("--enable-native-access=ALL-UNNAMED");
        for (String k : System.getProperties().stringPropertyNames()) {
            if (k.startsWith("jburn.")) cmd.add("-D" + k + "=" + System.getProperty(k));
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new JBurnException("launcher", "no free port for the rendezvous: " + e.getMessage());
        }
    }

    /**
     * {@code --nproc N [--nnodes M --node-rank K] [--master-addr A] [--master-port P] [--logs DIR] [--env K=V]... MAIN_CLASS ARGS...}; exits
     * with the children's code.
     */
    public static void main(String[] args) {
        int n = 1, port = 0, i = 0, nnodes = 1, nodeRank = 0;
        String addr = "127.0.0.1";
        Path logs = null;
        Map<String, String> env = new LinkedHashMap<>();
        for (; i < args.length && args[i].startsWith("--"); i += 2) {
            if (i + 1 >= args.length) throw new JBurnException("launcher", args[i] + " needs a value");
            switch (args[i]) {
                case "--nproc" -> n = Integer.parseInt(args[i + 1]);
                case "--master-addr" -> addr = args[i + 1];
                case "--master-port" -> port = Integer.parseInt(args[i + 1]);
                case "--nnodes" -> nnodes = Integer.parseInt(args[i + 1]);
                case "--node-rank" -> nodeRank = Integer.parseInt(args[i + 1]);
                case "--logs" -> logs = Path.of(args[i + 1]);
                case "--env" -> {
                    int eq = args[i + 1].indexOf('=');
                    if (eq < 1) throw new JBurnException("launcher", "--env takes NAME=VALUE, got " + args[i + 1]);
                    env.put(args[i + 1].substring(0, eq), args[i + 1].substring(eq + 1));
                }
                default -> throw new JBurnException("launcher", "unknown option " + args[i] + " (--nproc, --nnodes, --node-rank, --master-addr, --master-port, --logs, --env)");
            }
        }
        if (i >= args.length) throw new JBurnException("launcher", "usage: Launcher --nproc N [--nnodes M --node-rank K] [--master-addr A] [--master-port P] [--logs DIR] [--env K=V]... MAIN_CLASS ARGS...");
        String[] rest = java.util.Arrays.copyOfRange(args, i + 1, args.length);
        Launcher l = nproc(n).nodes(nnodes, nodeRank).master(addr, port).environment(env);
        if (logs != null) l = l.logsTo(logs);
        System.exit(l.run(java(args[i], rest)));
    }
}
