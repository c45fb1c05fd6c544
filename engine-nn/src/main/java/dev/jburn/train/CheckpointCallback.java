package dev.jburn.train;

import dev.jburn.JBurnException;
import dev.jburn.io.Checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@link Checkpoint}s during {@link Trainer#fit}: {@code epoch-0003.ckpt} every {@code every} epochs
 * (keeping the last {@code keepLast}), or with {@link #bestOnly} {@code best.ckpt} whenever the monitored value
 * improves. Made by {@link Callbacks#checkpoint}.
 */
public final class CheckpointCallback implements Callback {
    private final Path dir;
    private final int every;
    private final String monitor;
    private final int keepLast;
    private final Deque<Path> written = new ArrayDeque<>();
    private double best = Double.NaN;

    CheckpointCallback(Path dir, int every, String monitor, int keepLast) {
        if (dir == null) throw new JBurnException("checkpoint", "the directory must not be null");
        if (every < 1 || keepLast < 1) throw new JBurnException("checkpoint", "every and keepLast must be >= 1, got " + every + ", " + keepLast);
        this.dir = dir;
        this.every = every;
        this.monitor = monitor;
        this.keepLast = keepLast;
    }

    /** A checkpoint every {@code n} epochs. */
    public CheckpointCallback every(int n) { return new CheckpointCallback(dir, n, monitor, keepLast); }

    /** Only {@code best.ckpt}, rewritten when {@code name} improves (higher is better unless the name contains "loss"). */
    public CheckpointCallback bestOnly(String name) {
        if (name == null || name.isBlank()) throw new JBurnException("checkpoint", "the monitored name is required");
        return new CheckpointCallback(dir, every, name, keepLast);
    }

    /** Keep only the last {@code n} periodic checkpoints (older ones are deleted). */
    public CheckpointCallback keepLast(int n) { return new CheckpointCallback(dir, every, monitor, n); }

    /** The file of the periodic checkpoint after {@code epoch} (0-based). */
    public Path fileOf(int epoch) { return dir.resolve(String.format(Locale.ROOT, "epoch-%04d.ckpt", epoch + 1)); }

    /** The best-only checkpoint's file. */
    public Path bestFile() { return dir.resolve("best.ckpt"); }

    @Override public Action onEpochEnd(TrainingContext c, int epoch, Map<String, Double> logs) {
        if (monitor != null) {
            Double v = logs.get(monitor);
            if (v == null) throw new JBurnException("checkpoint", "'" + monitor + "' is not logged; logged: " + logs.keySet());
            boolean higher = !monitor.contains("loss");
            if (!Double.isNaN(v) && (Double.isNaN(best) || (higher ? v > best : v < best))) {
                best = v;
                Checkpoint.save(bestFile(), c.state(), epoch, c.history());
            }
            return Action.CONTINUE;
        }
        if ((epoch + 1) % every != 0) return Action.CONTINUE;
        Path f = fileOf(epoch);
        Checkpoint.save(f, c.state(), epoch, c.history());
        written.addLast(f);
        while (written.size() > keepLast) {
            try {
                Files.deleteIfExists(written.removeFirst());
            } catch (IOException e) {
                throw new JBurnException("checkpoint", "cannot delete an old checkpoint: " + e.getMessage(), e);
            }
        }
        return Action.CONTINUE;
    }
}
