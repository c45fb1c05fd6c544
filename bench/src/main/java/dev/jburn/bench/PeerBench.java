package dev.jburn.bench;

import dev.jburn.bench.peer.BenchOptions;
import dev.jburn.bench.peer.DjlPeer;
import dev.jburn.bench.peer.DjlWorker;
import dev.jburn.bench.peer.JBurnPeer;
import dev.jburn.bench.peer.PeerColumn;
import dev.jburn.bench.peer.PeerSession;
import dev.jburn.bench.peer.PeerWorkload;
import dev.jburn.bench.peer.PythonPeer;
import dev.jburn.bench.peer.ResultTable;
import dev.jburn.bench.peer.Rounds;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The peer benchmark: the same f32 work (GEMM, a ResNet 3×3 conv, a 3×3/2 max-pool, Cholesky), in one run, on JBurn's
 * {@code cpu} engine (this JVM), numpy and PyTorch ({@code /usr/bin/python3}, one process each) and DJL's PyTorch
 * engine (a child JVM, offline), printed as one Markdown table of JBurn time ÷ peer time (below 1: JBurn is faster).
 * The runtimes take turns in short bursts, several rounds per workload ({@link Rounds}); each ratio is the median of
 * the rounds' ratios, with its spread. A peer that is not installed is skipped with the reason. Run it with {@code bench/peers.sh}; see bench/README.md.
 */
public final class PeerBench {
    private PeerBench() {}

    public static void main(String[] args) throws IOException {
        BenchOptions o;
        try {
            o = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) System.err.println("PeerBench: " + e.getMessage());
            System.err.print(BenchOptions.USAGE);
            System.exit(2);
            return;
        }
        List<PeerWorkload> workloads = o.workloads();
        if (o.djlWorker()) {
            DjlWorker.run(workloads, o.plan(), new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                    System.out);
            return;
        }
        PrintStream progress = System.err;
        Files.createDirectories(o.workDir());
        progress.println("PeerBench: " + workloads.size() + " workloads, " + o.plan() + "; peers " + o.peers());
        List<PeerSession> sessions = new ArrayList<>(List.of(JBurnPeer.start(o.plan())));
        try {
            for (String peer : o.peers()) {
                progress.println("PeerBench: starting " + peer + " ...");
                sessions.add(switch (peer) {
                    case "numpy" -> PythonPeer.numpy(o.openblasCore()).start(o.python(), workloads, o.plan(), o.workDir());
                    case "numpy-haswell" -> PythonPeer.numpyHaswell().start(o.python(), workloads, o.plan(), o.workDir());
                    case "torch" -> PythonPeer.torch(o.openblasCore()).start(o.python(), workloads, o.plan(), o.workDir());
                    case "djl" -> DjlPeer.start(o.forwarded(), o.workDir());
                    default -> throw new IllegalStateException("unknown peer " + peer);
                });
                PeerSession s = sessions.getLast();
                progress.println("  " + peer + (s.unavailable() != null ? " skipped: " + s.unavailable() : ": " + s.library()));
            }
            List<PeerColumn> columns = Rounds.run(workloads, sessions, o.plan(), progress);
            String table = ResultTable.render(header(o), workloads, columns.getFirst(), columns.subList(1, columns.size()));
            System.out.print(table);
            Path saved = o.workDir().resolve("results.md");
            Files.writeString(saved, table);
            progress.println("PeerBench: table also in " + saved);
        } finally {
            for (PeerSession s : sessions) s.close();
        }
    }

    private static String header(BenchOptions o) {
        return "### Peer benchmark, " + ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z"))
                + "\n\nCells: **JBurn time ÷ peer time** (below 1: JBurn is faster; above 1: the peer is faster), then the"
                + " peer's own median time. Machine: " + cpu() + ", " + Runtime.getRuntime().availableProcessors()
                + " cores, " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ". The runtimes"
                + " alternate: after at least " + o.plan().warmups() + " warm-up call(s) lasting at least "
                + o.plan().warmupSeconds() + " s each, " + o.plan().rounds() + " rounds in which every runtime in turn"
                + " takes a burst of " + o.plan().reps() + " sample(s), after a " + o.plan().pauseSeconds() + " s pause;"
                + " a sample repeats the call for at least " + o.plan().minSampleSeconds() + " s. A ratio is the median"
                + " of the rounds' ratios (each round: the medians of its two bursts), with the lowest and highest"
                + " round in brackets; a time is the median of all samples. JBurn uses every core; the peers 2 threads."
                + " Other jobs may share the machine: a wide bracket says one did.\n";
    }

    private static String cpu() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).strip();
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch");
    }
}
