package dev.jburn.train;

import dev.jburn.JBurnException;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a training run logged, one value per epoch and name ({@code loss}, {@code accuracy},
 * {@code val_loss}, {@code val_accuracy}, {@code lr}, {@code samples_per_s}: training examples per second of the
 * epoch's steps, validation left out). {@link #writeCsv} and {@link #writePng}
 * (learning curves drawn with XChart) write atomically: a temp file, then a rename.
 *
 * <pre>{@code
 * History h = fit.history();
 * h.writePng(Path.of("curves.png"));      // loss curves (train, validation) and metric curves
 * double best = h.best("val_accuracy", true);
 * }</pre>
 */
public final class History {
    private final List<Integer> epochs = new ArrayList<>();
    private final Map<String, List<Double>> values = new LinkedHashMap<>();

    /** Adds one epoch's values (a name missing from earlier epochs gets NaN there). */
    public synchronized void add(int epoch, Map<String, Double> logs) {
        epochs.add(epoch);
        for (var e : logs.entrySet()) {
            List<Double> v = values.computeIfAbsent(e.getKey(), k -> new ArrayList<>(Collections.nCopies(epochs.size() - 1, Double.NaN)));
            v.add(e.getValue());
        }
        for (List<Double> v : values.values()) while (v.size() < epochs.size()) v.add(Double.NaN);
    }

    /** The epochs logged (0-based). */
    public synchronized List<Integer> epochs() { return List.copyOf(epochs); }

    /** The names logged. */
    public synchronized List<String> names() { return List.copyOf(values.keySet()); }

    /** One name's values, per epoch. */
    public synchronized List<Double> get(String name) {
        List<Double> v = values.get(name);
        if (v == null) throw new JBurnException("history", "nothing logged as '" + name + "'; logged: " + values.keySet());
        return List.copyOf(v);
    }

    /** The last value of {@code name}. */
    public double last(String name) { return get(name).getLast(); }

    /** The best value of {@code name}: the maximum when {@code higherIsBetter}, else the minimum (NaN ignored). */
    public double best(String name, boolean higherIsBetter) {
        double b = Double.NaN;
        for (double v : get(name)) {
            if (Double.isNaN(v)) continue;
            if (Double.isNaN(b) || (higherIsBetter ? v > b : v < b)) b = v;
        }
        return b;
    }

    /** The history as CSV: {@code epoch,loss,accuracy,...}, one row per epoch (epochs counted from 1). */
    public synchronized String toCsv() {
        StringBuilder sb = new StringBuilder("epoch");
        for (String n : values.keySet()) sb.append(',').append(n);
        sb.append('\n');
        for (int i = 0; i < epochs.size(); i++) {
            sb.append(epochs.get(i) + 1);
            for (List<Double> v : values.values()) sb.append(',').append(format(v.get(i)));
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Writes {@link #toCsv()} to {@code path}, atomically. */
    public void writeCsv(Path path) {
        atomically(path, tmp -> Files.writeString(tmp, toCsv(), StandardCharsets.UTF_8));
    }

    /**
     * Writes the learning curves as a PNG: the loss curves (train and {@code val_}) on the left, the other
     * metrics (train and validation) on the right, over epochs.
     */
    public void writePng(Path path) {
        List<XYChart> charts;
        synchronized (this) {
            if (epochs.isEmpty()) throw new JBurnException("history", "nothing to plot: no epoch was logged");
            charts = List.of(chart("Loss", true), chart("Metrics", false));
        }
        atomically(path, tmp -> BitmapEncoder.saveBitmap(new ArrayList<>(charts), 1, 2, tmp.toString().replaceAll("\\.png$", ""),
                BitmapEncoder.BitmapFormat.PNG));
    }

    private XYChart chart(String title, boolean losses) {
        XYChart c = new XYChartBuilder().width(640).height(420).title(title).xAxisTitle("epoch").yAxisTitle(losses ? "loss" : "value").build();
        c.getStyler().setMarkerSize(5);
        double[] x = epochs.stream().mapToDouble(e -> e + 1).toArray();
        boolean any = false;
        for (var e : values.entrySet()) {
            String n = e.getKey();
            boolean isLoss = n.equals("loss") || n.equals("val_loss");
            if (n.equals("lr") || n.equals("samples_per_s") || isLoss != losses) continue;
            double[] y = e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
            c.addSeries(n, x, y).setMarker(SeriesMarkers.CIRCLE);
            any = true;
        }
        if (!any) c.addSeries(losses ? "loss" : "(no metrics)", x, new double[x.length]);
        return c;
    }

    /** Shortest round-trip text, so that a history read back from a checkpoint is exact. */
    private static String format(double v) { return Double.isNaN(v) ? "" : Double.toString(v); }

    /** A history from {@link #toCsv()}'s text (empty cells are NaN). */
    public static History fromCsv(String csv) {
        if (csv == null) throw new JBurnException("history", "the CSV text must not be null");
        String[] lines = csv.split("\n");
        History h = new History();
        if (lines.length == 0 || lines[0].isBlank()) return h;
        String[] names = lines[0].split(",", -1);
        if (!names[0].equals("epoch")) throw new JBurnException("history", "a history CSV starts with 'epoch', got '" + names[0] + "'");
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            String[] f = lines[i].split(",", -1);
            if (f.length != names.length) throw new JBurnException("history", "line " + (i + 1) + " has " + f.length + " fields, expected " + names.length);
            Map<String, Double> logs = new LinkedHashMap<>();
            try {
                for (int j = 1; j < f.length; j++) logs.put(names[j], f[j].isEmpty() ? Double.NaN : Double.parseDouble(f[j]));
                h.add(Integer.parseInt(f[0]) - 1, logs);
            } catch (NumberFormatException e) {
                throw new JBurnException("history", "line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return h;
    }

    interface Writer { void write(Path tmp) throws IOException; }

    /** Writes through {@code w} into a temp file beside {@code path}, then renames it over {@code path}. */
    static void atomically(Path path, Writer w) {
        if (path == null) throw new JBurnException("history", "the path must not be null");
        Path abs = path.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            String name = abs.getFileName().toString();
            String ext = name.contains(".") ? name.substring(name.lastIndexOf('.')) : "";
            tmp = Files.createTempFile(dir, "." + name + ".", ext);
            w.write(tmp);
            try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the original failure matters more
                }
            }
            throw new JBurnException("history", "cannot write " + path + ": " + e.getMessage(), e);
        }
    }
}
