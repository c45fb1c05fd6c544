package dev.jburn.bench.peer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one peer as a child process and reads its JSON lines: {@code {"info": ...}} (what it runs on),
 * {@code {"fatal": ...}} (the peer cannot run: the whole column is skipped with that reason), and per workload
 * {@code {"name", "median_s", "samples", "inner", "check"}}, {@code {"name", "unavailable"}} (work this peer cannot
 * do) or {@code {"name", "error"}}. The child's stderr goes to
 * {@code peer_<peer>.log} in the work folder.
 */
final class PeerProcess {
    private PeerProcess() {}

    static PeerColumn run(String peer, List<String> command, Map<String, String> env, Path logFile,
                          List<PeerWorkload> workloads, Map<String, Cell> preset, PrintStream progress) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(logFile.toFile());
        pb.environment().putAll(env);
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            return PeerColumn.skipped(peer, "cannot start " + command.getFirst() + ": " + e.getMessage());
        }
        try {
            process.getOutputStream().close(); // the child reads nothing from stdin
        } catch (IOException ignored) {
            // already closed
        }
        String info = null;
        String fatal = null;
        Map<String, Cell> cells = new LinkedHashMap<>(preset);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (!line.startsWith("{")) continue; // a library's chatter on stdout
                if (!(Json.parse(line) instanceof Map<?, ?> m)) continue;
                if (m.get("info") instanceof String s) info = s;
                else if (m.get("fatal") instanceof String s) fatal = s;
                else if (m.get("name") instanceof String name) {
                    Cell cell = cell(m);
                    cells.put(name, cell);
                    progress.println("  " + peer + " " + name + ": " + ResultTable.describe(cell));
                }
            }
            int code = process.waitFor();
            if (fatal != null) return PeerColumn.skipped(peer, fatal);
            if (info == null) {
                return PeerColumn.skipped(peer, "exited with code " + code + " before reporting: " + tail(logFile));
            }
            for (PeerWorkload w : workloads) {
                cells.putIfAbsent(w.name(), new Cell.Failed("no result (process exited with code " + code + "; see "
                        + logFile + ")"));
            }
            return new PeerColumn(peer, info, null, cells);
        } catch (IOException e) {
            process.destroyForcibly();
            return PeerColumn.skipped(peer, "reading its output failed: " + e.getMessage());
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return PeerColumn.skipped(peer, "interrupted");
        }
    }

    private static Cell cell(Map<?, ?> m) {
        if (m.get("error") instanceof String error) return new Cell.Failed(error);
        if (m.get("unavailable") instanceof String reason) return new Cell.NotApplicable(reason);
        double median = ((Number) m.get("median_s")).doubleValue();
        List<?> raw = m.get("samples") instanceof List<?> l ? l : List.of(median);
        double[] samples = new double[raw.size()];
        for (int i = 0; i < samples.length; i++) samples[i] = ((Number) raw.get(i)).doubleValue();
        int inner = m.get("inner") instanceof Number n ? n.intValue() : 1;
        String check = m.get("check") instanceof String s ? s : "no check";
        return new Cell.Measured(new Timing(median, samples, inner, check));
    }

    /** The last lines of a log, on one line, for a skip reason. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> last = new ArrayList<>(lines.subList(Math.max(0, lines.size() - 3), lines.size()));
            return last.isEmpty() ? "(no output; log " + log + ")" : String.join(" | ", last).strip() + " (log " + log + ")";
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
