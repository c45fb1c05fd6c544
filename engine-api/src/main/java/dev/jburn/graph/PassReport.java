package dev.jburn.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * What each pass of an optimization changed, in order.
 *
 * <pre>{@code
 * CompiledFunction f = Jit.compile(x -> x.multiply(1).exp());
 * f.apply(x);
 * System.out.println(f.passReport());
 * // simplify (round 1): 3 -> 2 nodes
 * //   x*1: %2 = multiply(%0, %1) -> %0
 * }</pre>
 *
 * @param entries one entry per pass run that changed something
 */
public record PassReport(List<Entry> entries) {
    public PassReport {
        entries = List.copyOf(entries);
    }

    /**
     * One pass run.
     *
     * @param pass        the pass name
     * @param round       the round of the pipeline (passes repeat until nothing changes)
     * @param nodesBefore node count before, sub-graphs included
     * @param nodesAfter  node count after
     * @param changes     one line per change
     */
    public record Entry(String pass, int round, int nodesBefore, int nodesAfter, List<String> changes) {
        public Entry {
            changes = List.copyOf(changes);
        }
    }

    /** Every change line of the pass named {@code pass}, over all rounds. */
    public List<String> changes(String pass) {
        List<String> out = new ArrayList<>();
        for (Entry e : entries) if (e.pass().equals(pass)) out.addAll(e.changes());
        return out;
    }

    /** Whether any pass changed anything. */
    public boolean changedAnything() { return !entries.isEmpty(); }

    @Override
    public String toString() {
        if (entries.isEmpty()) return "no pass changed the graph";
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries) {
            sb.append(e.pass()).append(" (round ").append(e.round()).append("): ").append(e.nodesBefore()).append(" -> ")
                    .append(e.nodesAfter()).append(" nodes\n");
            for (String c : e.changes()) sb.append("  ").append(c).append('\n');
        }
        return sb.toString().stripTrailing();
    }
}
