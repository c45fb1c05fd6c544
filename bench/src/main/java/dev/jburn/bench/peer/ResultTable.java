package dev.jburn.bench.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one table PeerBench prints (Markdown): per workload, JBurn's median time and, per peer, JBurn time ÷ peer time
 * (the median of the rounds' ratios, and their range) with the peer's own time; GFLOP/s where the work has a FLOP
 * count. Reasons (n/a, errors, failed checks) are
 * footnotes, so the table stays narrow.
 */
public final class ResultTable {
    private final List<String> notes = new ArrayList<>();

    private ResultTable() {}

    public static String render(String header, List<PeerWorkload> workloads, PeerColumn jburn, List<PeerColumn> peers) {
        return new ResultTable().table(header, workloads, jburn, peers);
    }

    private String table(String header, List<PeerWorkload> workloads, PeerColumn jburn, List<PeerColumn> peers) {
        StringBuilder b = new StringBuilder(header);
        b.append("\n| workload | shape | jburn |");
        for (PeerColumn p : peers) b.append(' ').append(p.peer()).append(" |");
        b.append("\n|---|---|---|");
        b.append("---|".repeat(peers.size()));
        for (PeerWorkload w : workloads) {
            Cell mine = jburn.available() ? jburn.cells().get(w.name()) : null;
            b.append("\n| ").append(w.name()).append(" | ").append(w.shape()).append(" | ");
            b.append(mine == null ? "skipped" : own(mine, w)).append(" |");
            for (PeerColumn p : peers) {
                b.append(' ').append(p.available() ? ratio(mine, p.cells().get(w.name()), w, p.peer()) : "skipped")
                        .append(" |");
            }
        }
        b.append("\n\nWhat each runtime ran on:\n");
        for (PeerColumn p : concat(jburn, peers)) {
            b.append("\n- **").append(p.peer()).append("**: ")
                    .append(p.available() ? p.library() : "skipped: " + p.unavailable());
        }
        if (!notes.isEmpty()) {
            b.append("\n\nNotes:\n");
            for (int i = 0; i < notes.size(); i++) b.append("\n").append(i + 1).append(". ").append(notes.get(i));
        }
        return b.append('\n').toString();
    }

    private String own(Cell cell, PeerWorkload w) {
        return switch (cell) {
            case Cell.Measured m -> timeAndRate(m.timing(), w) + checkMark(m.timing(), "jburn", w);
            case Cell.NotApplicable n -> "n/a" + note("jburn: " + n.reason());
            case Cell.Failed f -> "error" + note("jburn " + w.name() + ": " + f.error());
        };
    }

    private String ratio(Cell mine, Cell theirs, PeerWorkload w, String peer) {
        if (theirs == null) return "–";
        return switch (theirs) {
            case Cell.Measured m -> {
                String r = mine instanceof Cell.Measured j ? roundRatios(j.timing(), m.timing()) : "– (";
                yield r + timeAndRate(m.timing(), w) + ")" + checkMark(m.timing(), peer, w);
            }
            case Cell.NotApplicable n -> "n/a" + note(peer + ": " + n.reason());
            case Cell.Failed f -> "error" + note(peer + " " + w.name() + ": " + f.error());
        };
    }

    /**
     * The median of the per-round ratios in bold, then an opened bracket with the lowest and highest round's ratio:
     * each round's ratio compares two bursts taken seconds apart, so a phase of outside load moves a round, not the
     * median.
     */
    static String roundRatios(Timing mine, Timing theirs) {
        double[] a = mine.roundSeconds(), b = theirs.roundSeconds();
        int n = Math.min(a.length, b.length);
        if (n == 0) return "**" + fmt(mine.medianSeconds() / theirs.medianSeconds()) + "** (";
        double[] ratios = new double[n];
        for (int i = 0; i < n; i++) ratios[i] = a[i] / b[i];
        java.util.Arrays.sort(ratios);
        String median = "**" + fmt(Timing.median(ratios)) + "** (";
        return n == 1 ? median : median + fmt(ratios[0]) + "–" + fmt(ratios[n - 1]) + "; ";
    }

    private String checkMark(Timing t, String peer, PeerWorkload w) {
        return t.checkPassed() ? "" : " check failed" + note(peer + " " + w.name() + ": " + t.check());
    }

    private String note(String text) {
        int i = notes.indexOf(text);
        if (i < 0) {
            notes.add(text);
            i = notes.size() - 1;
        }
        return " [" + (i + 1) + "]";
    }

    /** One line for progress output. */
    public static String describe(Cell cell) {
        return switch (cell) {
            case Cell.Measured m -> {
                double[] s = m.timing().samples();
                java.util.Arrays.sort(s);
                yield ms(m.timing().medianSeconds()) + " (samples " + ms(s[0]) + " to " + ms(s[s.length - 1]) + ", "
                        + m.timing().inner() + " call(s) each; check " + m.timing().check() + ")";
            }
            case Cell.NotApplicable n -> "n/a: " + n.reason();
            case Cell.Failed f -> "error: " + f.error();
        };
    }

    private static String timeAndRate(Timing t, PeerWorkload w) {
        String s = ms(t.medianSeconds());
        if (w.flops() > 0) s += ", " + fmt(w.flops() / t.medianSeconds() / 1e9) + " GFLOP/s";
        return s;
    }

    static String ms(double seconds) { return fmt(seconds * 1e3) + " ms"; }

    /** Three significant digits, no exponent. */
    static String fmt(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return String.valueOf(v);
        double a = Math.abs(v);
        int decimals = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a >= 0.1 ? 3 : 4;
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static List<PeerColumn> concat(PeerColumn first, List<PeerColumn> rest) {
        List<PeerColumn> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }
}
