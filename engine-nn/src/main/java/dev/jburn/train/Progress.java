package dev.jburn.train;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The per-epoch progress display of {@link Trainer#fit}: a console progress bar (me.tongfei:progressbar) with the
 * loss, the metrics, samples/s and the ETA when the output is a terminal, otherwise plain log lines at every
 * quarter of the epoch (CI, pipes, files).
 */
final class Progress implements AutoCloseable {
    private final Fit.ProgressMode mode;
    private final PrintStream out;
    private ProgressBar bar;
    private long total, start;
    private int epoch, epochs, nextQuarter;
    private long samples;

    Progress(Fit.ProgressMode mode, PrintStream out) {
        this.mode = mode == Fit.ProgressMode.AUTO ? (System.console() != null && System.console().isTerminal() ? Fit.ProgressMode.BAR : Fit.ProgressMode.LINES) : mode;
        this.out = out;
    }

    void startEpoch(int epoch, int epochs, long steps) {
        this.epoch = epoch;
        this.epochs = epochs;
        this.total = steps;
        this.start = System.nanoTime();
        this.samples = 0;
        this.nextQuarter = 1;
        if (mode == Fit.ProgressMode.BAR) {
            bar = new ProgressBarBuilder().setTaskName("epoch " + (epoch + 1) + "/" + epochs).setInitialMax(steps)
                    .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).continuousUpdate().setConsumer(
                            new me.tongfei.progressbar.ConsoleProgressBarConsumer(out)).build();
        }
    }

    void step(long done, long batchSamples, double loss, String metrics) {
        samples += batchSamples;
        double secs = (System.nanoTime() - start) / 1e9;
        String extra = String.format(Locale.ROOT, "loss %.4f%s, %.0f samples/s", loss, metrics, samples / Math.max(secs, 1e-9));
        if (mode == Fit.ProgressMode.BAR && bar != null) {
            bar.stepTo(done);
            bar.setExtraMessage(" " + extra);
        } else if (mode == Fit.ProgressMode.LINES && total > 0 && done * 4 >= nextQuarter * total) {
            while (done * 4 >= nextQuarter * total) nextQuarter++;
            long eta = done == 0 ? 0 : Math.round(secs / done * (total - done));
            out.println(String.format(Locale.ROOT, "epoch %d/%d: %d/%d steps, %s, ETA %ds", epoch + 1, epochs, done, total, extra, eta));
        }
    }

    void endEpoch() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }

    @Override public void close() { endEpoch(); }
}
