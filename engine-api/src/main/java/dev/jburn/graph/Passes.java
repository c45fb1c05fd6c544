package dev.jburn.graph;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.spi.Capabilities;

import java.util.ArrayList;
import java.util.List;

/**
 * The standard passes and the pipeline that runs them until nothing changes.
 *
 * <pre>{@code
 * Passes.Optimized o = Passes.optimize(graph, Passes.standard(Engine.select("cpu"), JitOptions.defaults()), true);
 * System.out.println(o.report());
 * }</pre>
 */
public final class Passes {
    private Passes() {}

    /** At most this many rounds of the pipeline. */
    public static final int MAX_ROUNDS = 4;

    /** Drops nodes that no output depends on. */
    public static Pass deadCodeElimination() { return new DeadCodeElimination(); }

    /** Merges duplicate subexpressions (same prim, attributes and inputs; equal constants). */
    public static Pass commonSubexpressionElimination() { return new CommonSubexpressionElimination(); }

    /**
     * Evaluates nodes whose inputs are all constants with {@code engine}'s kernels, when their
     * outputs take at most {@code maxBytes}; views of constants fold at any size. A {@code null}
     * engine folds views only.
     */
    public static Pass constantFolding(Engine engine, long maxBytes) { return new ConstantFolding(engine, maxBytes); }

    /** Exact identities: {@code x*1}, {@code x/1}, {@code x-0}, double transpose, reshape chains, no-op casts and broadcasts. */
    public static Pass algebraicSimplification() { return new AlgebraicSimplification(); }

    /**
     * Groups chains of element-wise ops (with the broadcasts feeding them) whose intermediates
     * have no other readers, together with their consumer (another element-wise op, or a
     * sum/max/min over trailing axes), into {@link Prim.Fused} nodes. Short rank-0 element-wise
     * computations (an optimizer's {@code 1 - β^t}) are copied into every group that reads them
     * rather than run on their own. The report names each group, the scalar nodes it recomputes, and
     * where a chain was broken (several readers, an op that is not element-wise, a shape change).
     * For an engine that runs every op natively; see {@link #fusion(Engine, boolean)}.
     */
    public static Pass fusion() { return new FusionPass(Capabilities.everything()); }

    /**
     * {@link #fusion()} for a graph that runs on {@code engine} ({@code null}: any engine): scalar
     * computations are copied into groups only where {@code engine} runs their ops natively (a group
     * holding an op the engine lacks would not run as one kernel there), and only with
     * {@code rematerializeScalars} (without it, only rank-0 constants are copied). The same switch
     * recomputes element-wise nodes with one full-size input in each reader's group (see {@code GroupCopies}).
     *
     * <pre>{@code
     * Pass fuse = Passes.fusion(Engine.select("cpu"), true);
     * }</pre>
     */
    public static Pass fusion(Engine engine, boolean rematerializeScalars) {
        boolean leadingSums = engine != null && engine.capabilities().fusesLeadingSums();
        if (!rematerializeScalars) return new FusionPass(null, leadingSums);
        return new FusionPass(engine == null ? Capabilities.everything() : engine.capabilities(), leadingSums);
    }

    /**
     * Folding, simplification, CSE and DCE, in that order, then fusion (when
     * {@link JitOptions#fuse}), for a graph that will run on {@code engine}. Fusion runs last so
     * the other passes see plain nodes.
     */
    public static List<Pass> standard(Engine engine, JitOptions options) {
        List<Pass> passes = new ArrayList<>(List.of(constantFolding(engine, options.foldLimitBytes()), algebraicSimplification(),
                commonSubexpressionElimination(), deadCodeElimination()));
        if (options.fuse()) passes.add(fusion(engine, options.rematerializeScalars()));
        return List.copyOf(passes);
    }

    /**
     * The result of {@link #optimize}.
     *
     * @param graph  the optimized graph
     * @param report what each pass changed
     */
    public record Optimized(Graph graph, PassReport report) {}

    /**
     * Runs {@code passes} in order, repeatedly, until a round changes nothing (at most
     * {@link #MAX_ROUNDS}). With {@code verifyEachPass}, {@link Verifier} checks the graph after
     * every pass and a failure names the pass.
     */
    public static Optimized optimize(Graph graph, List<Pass> passes, boolean verifyEachPass) {
        List<PassReport.Entry> entries = new ArrayList<>();
        Graph g = graph;
        for (int round = 1; round <= MAX_ROUNDS; round++) {
            boolean changed = false;
            for (Pass p : passes) {
                List<String> changes = new ArrayList<>();
                int before = g.totalNodeCount();
                Graph out = p.run(g, changes::add);
                if (verifyEachPass) {
                    String problem = Verifier.firstProblem(out);
                    if (problem != null) throw new JBurnException("verify", "after pass " + p.name() + ": " + problem + "\nin " + out);
                }
                if (!changes.isEmpty()) {
                    entries.add(new PassReport.Entry(p.name(), round, before, out.totalNodeCount(), changes));
                    changed = true;
                }
                g = out;
            }
            if (!changed) break;
        }
        return new Optimized(g, new PassReport(entries));
    }
}
