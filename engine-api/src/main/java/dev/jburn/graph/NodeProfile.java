package dev.jburn.graph;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Wall time per node of interpreted graphs, summed by what the node is (its primitive, a fused
 * group's primitives, the output types): where a compiled training step spends its time on an
 * engine that runs nodes synchronously (the cpu engine; a GPU engine's launches return before
 * their kernels finish, so there it measures host cost only, unless {@code -Djburn.profile.nodes.sync=true} makes it
 * wait for the device after every node: then a node's time is its host cost plus its kernels, which is what a
 * kernel-bound step needs; turn the cuda engine's graphs off with {@code -Djburn.cuda.graphs=false}, since a replayed
 * graph runs no nodes). Off unless the JVM runs with
 * {@code -Djburn.profile.nodes=true}; then the table goes to standard error at exit, the nodes
 * that took most time first. Only the outermost graph's nodes are timed, so a fused group or a
 * loop counts once.
 *
 * <pre>{@code
 * java -Djburn.profile.nodes=true ... dev.jburn.cli.Main train --model cnn --epochs 1
 * }</pre>
 */
public final class NodeProfile {
    private NodeProfile() {}

    /** Whether nodes are timed ({@code -Djburn.profile.nodes=true}). */
    public static final boolean ENABLED = Boolean.getBoolean("jburn.profile.nodes");
    /** Whether every timed node waits for its engine's device ({@code -Djburn.profile.nodes.sync=true}). */
    public static final boolean SYNC = Boolean.getBoolean("jburn.profile.nodes.sync");
    /** Calls per node label ignored before timing starts: the warm-up of the JIT compilers. */
    private static final int SKIP = Integer.getInteger("jburn.profile.nodes.skip", 20);

    private static final Map<String, long[]> TIMES = new ConcurrentHashMap<>(); // label -> {calls, timed calls, nanos}
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    static {
        if (ENABLED) Runtime.getRuntime().addShutdownHook(new Thread(() -> print(System.err), "jburn-node-profile"));
    }

    /** Enters a graph; true when its nodes are the outermost ones (then they are timed). */
    static boolean enter() {
        return DEPTH.get()[0]++ == 0;
    }

    static void exit() {
        DEPTH.get()[0]--;
    }

    /** Adds one run of {@code n} that took {@code nanos}. */
    static void record(Node n, long nanos) {
        long[] t = TIMES.computeIfAbsent(label(n), k -> new long[3]);
        synchronized (t) {
            if (t[0]++ < SKIP) return;
            t[1]++;
            t[2] += nanos;
        }
    }

    /** The table so far: label, timed calls, total ms, µs per call, share of the total; most time first. */
    public static void print(PrintStream out) {
        List<Map.Entry<String, long[]>> rows = new ArrayList<>(TIMES.entrySet());
        rows.removeIf(e -> e.getValue()[1] == 0);
        rows.sort((a, b) -> Long.compare(b.getValue()[2], a.getValue()[2]));
        double total = rows.stream().mapToLong(e -> e.getValue()[2]).sum();
        out.printf("jburn node profile (after %d warm-up calls per node): %.1f ms in %d kinds of node%n", SKIP, total / 1e6, rows.size());
        out.printf("%10s %8s %10s %6s  %s%n", "ms", "calls", "µs/call", "%", "node");
        for (Map.Entry<String, long[]> e : rows) {
            long[] t = e.getValue();
            out.printf("%10.1f %8d %10.1f %6.2f  %s%n", t[2] / 1e6, t[1], t[2] / 1e3 / t[1], 100 * t[2] / total, e.getKey());
        }
    }

    /** What {@code n} is: primitive (a fused group's first primitives), output types. */
    static String label(Node n) {
        String what = n.prim().name();
        if (n.prim() instanceof Prim.Fused f) {
            List<String> body = f.body().nodes().stream().map(x -> x.prim().name())
                    .filter(s -> !s.equals("constant")).collect(Collectors.toList());
            what = "fused[" + String.join(" ", body.size() > 8 ? body.subList(0, 8) : body) + (body.size() > 8 ? " +" + (body.size() - 8) : "") + "]";
        }
        String ins = n.inputs().stream().map(v -> v.type().toString()).collect(Collectors.joining(","));
        String outs = n.outputs().stream().map(v -> v.type().toString()).collect(Collectors.joining(","));
        return what + " (" + ins + ") -> " + outs;
    }
}
