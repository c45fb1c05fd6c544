package dev.jburn.bench.peer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Times every workload on every runtime in alternating bursts: each runtime prepares (and warms up) the workload,
 * then in each of {@code plan.rounds()} rounds every runtime takes one burst of {@code plan.reps()} samples in turn
 * (JBurn, numpy, torch, ..., the order reversed every other round so that no runtime always follows the same one),
 * then each checks its last result. A phase of load from outside then lands on a round, whose ratio it moves, not on
 * one runtime's whole figure.
 */
public final class Rounds {
    private Rounds() {}

    /** One column per session (the sessions' order), each with a cell per workload. */
    public static List<PeerColumn> run(List<PeerWorkload> workloads, List<PeerSession> sessions, Plan plan,
                                       PrintStream progress) {
        List<Map<String, Cell>> cells = new ArrayList<>();
        for (int i = 0; i < sessions.size(); i++) cells.add(new LinkedHashMap<>());
        for (PeerWorkload w : workloads) {
            progress.println("PeerBench: " + w.name() + " ...");
            List<Integer> ready = new ArrayList<>();
            List<List<double[]>> bursts = new ArrayList<>();
            for (int i = 0; i < sessions.size(); i++) {
                bursts.add(new ArrayList<>());
                PeerSession s = sessions.get(i);
                if (s.unavailable() != null) continue;
                Cell refused = s.prepare(w);
                if (refused == null) ready.add(i);
                else cells.get(i).put(w.name(), refused);
            }
            for (int r = 0; r < plan.rounds(); r++) {
                List<Integer> order = new ArrayList<>(ready);
                if (r % 2 == 1) order = order.reversed();
                for (int i : order) {
                    pause(plan.pauseSeconds());
                    try {
                        bursts.get(i).add(sessions.get(i).burst(plan.reps()));
                    } catch (RuntimeException e) {
                        cells.get(i).put(w.name(), new Cell.Failed(e.getMessage()));
                        ready.remove((Integer) i);
                    }
                }
            }
            for (int i : ready) {
                PeerSession s = sessions.get(i);
                Cell cell = new Cell.Measured(Timing.ofRounds(bursts.get(i), s.inner(), s.finish()));
                cells.get(i).put(w.name(), cell);
                progress.println("  " + s.peer() + " " + w.name() + ": " + ResultTable.describe(cell));
            }
        }
        List<PeerColumn> columns = new ArrayList<>();
        for (int i = 0; i < sessions.size(); i++) {
            PeerSession s = sessions.get(i);
            columns.add(s.unavailable() != null ? PeerColumn.skipped(s.peer(), s.unavailable())
                    : new PeerColumn(s.peer(), s.library(), null, cells.get(i)));
        }
        return columns;
    }

    private static void pause(double seconds) {
        if (seconds <= 0) return;
        try {
            Thread.sleep((long) (seconds * 1e3));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
