package dev.jburn.graph;

import java.util.function.Consumer;

/**
 * A graph-to-graph rewrite that keeps the graph's meaning. {@link Passes} has the standard ones.
 *
 * <pre>{@code
 * Graph smaller = Passes.deadCodeElimination().run(graph, change -> System.out.println(change));
 * }</pre>
 */
public interface Pass {
    /** Short name for reports, e.g. {@code "cse"}. */
    String name();

    /**
     * The rewritten graph (the same inputs and outputs in meaning); each change is reported as
     * one line to {@code changes}. Sub-graphs of control-flow nodes are rewritten too.
     */
    Graph run(Graph graph, Consumer<String> changes);
}
