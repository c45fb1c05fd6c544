package dev.jburn.bench;

import dev.jburn.bench.peer.BenchOptions;
import dev.jburn.bench.peer.DjlPeer;
import dev.jburn.bench.peer.DjlWorker;
import dev.jburn.bench.peer.JBurnPeer;
import dev.jburn.bench.peer.PeerColumn;
import dev.jburn.bench.peer.PeerWorkload;
import dev.jburn.bench.peer.PythonPeer;
import dev.jburn.bench.peer.ResultTable;

import java.io.IOException;
import java.io.PrintStream;
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
 * Each figure is the median of several samples after warm-up calls. A peer that is not installed is skipped with
 * the reason. Run it with {@code bench/peers.sh}; see bench/README.md.
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
            DjlWorker.run(workloads, o.plan(), System.out);
            return;
        }
        PrintStream progress = System.err;
        Files.createDirectories(o.workDir());
        progress.println("PeerBench: " + workloads.size() + " workloads, " + o.plan() + "; peers " + o.peers());
        PeerColumn jburn = JBurnPeer.run(workloads, o.plan(), progress);
        List<PeerColumn> peers = new ArrayList<>();
        for (String peer : o.peers()) {
            progress.println("PeerBench: " + peer + " ...");
            peers.add(switch (peer) {
                case "numpy" -> PythonPeer.numpy().run(o.python(), workloads, o.plan(), o.workDir(), progress);
                case "torch" -> PythonPeer.torch().run(o.python(), workloads, o.plan(), o.workDir(), progress);
                case "djl" -> DjlPeer.run(o.forwarded(), workloads, o.workDir(), progress);
                default -> throw new IllegalStateException("unknown peer " + peer);
            });
            if (!peers.getLast().available()) progress.println("  " + peer + " skipped: " + peers.getLast().unavailable());
        }
        String table = ResultTable.render(header(o), workloads, jburn, peers);
        System.out.print(table);
        Path saved = o.workDir().resolve("results.md");
        Files.writeString(saved, table);
        progress.println("PeerBench: table also in " + saved);
    }

    private static String header(BenchOptions o) {
        return "### Peer benchmark, " + ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z"))
                + "\n\nCells: **JBurn time ÷ peer time** (below 1: JBurn is faster; above 1: the peer is faster), then the"
                + " peer's own median time. Machine: " + cpu() + ", " + Runtime.getRuntime().availableProcessors()
                + " cores, " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ". Each time is"
                + " the median of " + o.plan().reps() + " samples after at least " + o.plan().warmups() + " warm-up"
                + " call(s) lasting at least " + o.plan().warmupSeconds() + " s; a sample repeats the call for at least "
                + o.plan().minSampleSeconds() + " s. JBurn uses every core; the peers 2 threads. Other jobs may share"
                + " the machine: when they do, rerun before trusting a figure.\n";
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
