package dev.jburn.bench.peer;

import dev.jburn.Engine;
import dev.jburn.Tensor;

/** JBurn's {@code cpu} engine, in this JVM, with its default threads (every core). */
public final class JBurnPeer implements PeerSession {
    private final Engine cpu;
    private final String unavailable;
    private final Plan plan;
    private TimedCase<Tensor> open;
    private WarmCase<Tensor> warm;

    private JBurnPeer(Engine cpu, String unavailable, Plan plan) {
        this.cpu = cpu;
        this.unavailable = unavailable;
        this.plan = plan;
    }

    public static JBurnPeer start(Plan plan) {
        try {
            return new JBurnPeer(Engine.select("cpu"), null, plan);
        } catch (RuntimeException e) {
            return new JBurnPeer(null, "no cpu engine: " + e.getMessage(), plan);
        }
    }

    @Override public String peer() { return "jburn"; }

    @Override public String library() {
        if (cpu == null) return null;
        String threads = System.getProperty("jburn.threads", Runtime.getRuntime().availableProcessors() + " (all cores)");
        return "JBurn cpu engine (pure Java, Vector API), Java " + Runtime.version() + ", threads " + threads
                + ", vector kernels " + System.getProperty("jburn.vector", "true");
    }

    @Override public String unavailable() { return unavailable; }

    @Override public Cell prepare(PeerWorkload w) {
        try {
            open = w.jburn(cpu);
            warm = WarmCase.warmUp(open, plan);
            return null;
        } catch (PeerUnavailable e) {
            return new Cell.NotApplicable(e.getMessage());
        } catch (RuntimeException e) {
            closeCase();
            return new Cell.Failed(e.toString());
        }
    }

    @Override public double[] burst(int reps) { return warm.burst(reps); }

    @Override public int inner() { return warm.inner(); }

    @Override public String finish() {
        try {
            return warm.finish();
        } finally {
            closeCase();
        }
    }

    private void closeCase() {
        if (open != null) open.close();
        open = null;
        warm = null;
    }

    @Override public void close() { closeCase(); }
}
