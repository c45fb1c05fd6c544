package dev.jburn.bench.peer;

import dev.jburn.Engine;
import dev.jburn.Tensor;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JBurn's {@code cpu} engine, in this JVM, with its default threads (every core). */
public final class JBurnPeer {
    private JBurnPeer() {}

    public static PeerColumn run(List<PeerWorkload> workloads, Plan plan, PrintStream progress) {
        Engine cpu;
        try {
            cpu = Engine.select("cpu");
        } catch (RuntimeException e) {
            return PeerColumn.skipped("jburn", "no cpu engine: " + e.getMessage());
        }
        Map<String, Cell> cells = new LinkedHashMap<>();
        for (PeerWorkload w : workloads) {
            Cell cell;
            try (TimedCase<Tensor> c = w.jburn(cpu)) {
                cell = new Cell.Measured(Timing.measure(c, plan));
            } catch (PeerUnavailable e) {
                cell = new Cell.NotApplicable(e.getMessage());
            } catch (RuntimeException e) {
                cell = new Cell.Failed(e.toString());
            }
            cells.put(w.name(), cell);
            progress.println("  jburn " + w.name() + ": " + ResultTable.describe(cell));
        }
        String threads = System.getProperty("jburn.threads", Runtime.getRuntime().availableProcessors() + " (all cores)");
        String library = "JBurn cpu engine (pure Java, Vector API), Java " + Runtime.version() + ", threads " + threads
                + ", vector kernels " + System.getProperty("jburn.vector", "true");
        return new PeerColumn("jburn", library, null, cells);
    }
}
