package dev.jburn.bench.peer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A peer in a child process that stays up for the whole run (a crash or a missing library skips its column, not
 * the run), driven by one command a line on its stdin and answering with one JSON object a line on its stdout:
 * first {@code {"info": ...}} (what it runs on) or {@code {"fatal": ...}} (it cannot run); then, to
 * {@code prepare NAME}, {@code {"name", "inner"}}, {@code {"name", "unavailable"}} or {@code {"name", "error"}};
 * to {@code burst N}, {@code {"samples": [...]}} or {@code {"error"}}; to {@code finish}, {@code {"check"}}. Other
 * stdout lines (a library's chatter) are skipped. Closing stdin ends the child. Its stderr goes to a log file.
 * {@code harness.py} and {@link DjlWorker} are the two children.
 */
final class ChildSession implements PeerSession {
    private final String peer;
    private final Path log;
    private final Map<String, Cell> preset;
    private Process process;
    private BufferedReader out;
    private Writer in;
    private String info, unavailable;
    private int inner;

    private ChildSession(String peer, Path log, Map<String, Cell> preset) {
        this.peer = peer;
        this.log = log;
        this.preset = Map.copyOf(preset);
    }

    /** Starts {@code command} and waits for its info line; {@code preset} are cells this peer knows without asking. */
    static ChildSession start(String peer, List<String> command, Map<String, String> env, List<String> unset, Path log,
                              Map<String, Cell> preset) {
        ChildSession s = new ChildSession(peer, log, preset);
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(log.toFile());
        pb.environment().keySet().removeAll(unset);
        pb.environment().putAll(env);
        try {
            s.process = pb.start();
        } catch (IOException e) {
            s.unavailable = "cannot start " + command.getFirst() + ": " + e.getMessage();
            return s;
        }
        s.out = new BufferedReader(new InputStreamReader(s.process.getInputStream(), StandardCharsets.UTF_8));
        s.in = new OutputStreamWriter(s.process.getOutputStream(), StandardCharsets.UTF_8);
        try {
            Map<?, ?> first = s.reply();
            if (first.get("info") instanceof String i) s.info = i;
            else if (first.get("fatal") instanceof String f) s.unavailable = f;
            else s.unavailable = "unexpected first line " + first;
        } catch (IOException e) {
            s.unavailable = e.getMessage();
        }
        if (s.unavailable != null) s.close();
        return s;
    }

    /** A peer that cannot start, for {@code reason}. */
    static ChildSession skipped(String peer, String reason) {
        ChildSession s = new ChildSession(peer, null, Map.of());
        s.unavailable = reason;
        return s;
    }

    @Override public String peer() { return peer; }

    @Override public String library() { return info; }

    @Override public String unavailable() { return unavailable; }

    @Override public Cell prepare(PeerWorkload w) {
        if (preset.containsKey(w.name())) return preset.get(w.name());
        try {
            Map<?, ?> m = ask("prepare " + w.name());
            if (m.get("error") instanceof String error) return new Cell.Failed(error);
            if (m.get("unavailable") instanceof String reason) return new Cell.NotApplicable(reason);
            inner = ((Number) m.get("inner")).intValue();
            return null;
        } catch (IOException e) {
            return new Cell.Failed(e.getMessage());
        }
    }

    @Override public double[] burst(int reps) {
        try {
            Map<?, ?> m = ask("burst " + reps);
            if (m.get("error") instanceof String error) throw new IllegalStateException(error);
            List<?> raw = (List<?>) m.get("samples");
            double[] samples = new double[raw.size()];
            for (int i = 0; i < samples.length; i++) samples[i] = ((Number) raw.get(i)).doubleValue();
            return samples;
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override public int inner() { return inner; }

    @Override public String finish() {
        try {
            Map<?, ?> m = ask("finish");
            return m.get("check") instanceof String s ? s : "FAIL " + m.get("error");
        } catch (IOException e) {
            return "FAIL " + e.getMessage();
        }
    }

    private Map<?, ?> ask(String command) throws IOException {
        if (process == null || !process.isAlive()) throw new IOException(peer + " is not running: " + tail(log));
        in.write(command + "\n");
        in.flush();
        return reply();
    }

    /** The next JSON object on the child's stdout; an IOException saying why when the child ended first. */
    private Map<?, ?> reply() throws IOException {
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith("{") && Json.parse(line) instanceof Map<?, ?> m) return m;
        }
        int code;
        try {
            code = process.waitFor(10, TimeUnit.SECONDS) ? process.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = -1;
        }
        throw new IOException("exited with code " + code + " before answering: " + tail(log));
    }

    @Override public void close() {
        if (process == null) return;
        try {
            in.close(); // the child's command loop ends at end of input
            if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        process = null;
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
