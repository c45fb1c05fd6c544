package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The usual metrics as mergeable {@link Metric} states. Class predictions are the argmax of
 * {@code [batch, classes]} scores (first of ties); targets are integer labels {@code [batch]} or
 * one-hot {@code [batch, classes]}. Precision, recall and F1 are macro averages over classes
 * (classes that never occur count 0), computed from a confusion matrix kept in the state.
 */
public final class Metrics {
    private Metrics() {}

    /** The fraction of samples whose argmax equals the label (sparse or one-hot targets). */
    public static Metric accuracy() { return topKAccuracy(1, "accuracy"); }

    /** The fraction of samples whose label is among the {@code k} highest scores (ties: scores strictly greater count against). */
    public static Metric topKAccuracy(int k) { return topKAccuracy(k, "top" + k + "_accuracy"); }

    private static Metric topKAccuracy(int k, String name) {
        if (k < 1) throw new JBurnException("topKAccuracy", "k must be >= 1, got " + k);
        return new Metric() {
            @Override public String name() { return name; }

            @Override public Map<String, Tensor> init(Engine e) { return zeros(e, "correct", "count"); }

            @Override public Map<String, Tensor> update(Map<String, Tensor> s, Tensor p, Tensor y, Tensor w) {
                Tensor labels = labels(name, p, y);
                int classes = p.shape().dim(1);
                Tensor hit;
                if (k == 1) {
                    hit = p.argmax(1).asType(DType.S32).equal(labels);
                } else {
                    Tensor onehot = labels.reshape(p.shape().dim(0), 1).equal(Tensor.iota(Shape.of(1, classes), DType.S32, 1).to(p.engine()));
                    Tensor target = onehot.select(p, 0.0).sum(new int[] {1}, true);
                    hit = p.greater(target).asType(DType.F32).sum(new int[] {1}).less((double) k);
                }
                return add(s, "correct", weighted(hit.asType(DType.F32), w).sum(), "count", count(p, w));
            }

            @Override public double result(Map<String, Tensor> s) { return ratio(s.get("correct"), s.get("count")); }
        };
    }

    /** The mean of {@code loss} over the samples seen (weighted), e.g. a second loss to watch beside the one trained. */
    public static Metric meanLoss(String name, Loss loss) {
        if (name == null || name.isBlank() || loss == null) throw new JBurnException("meanLoss", "a name and a loss are required");
        return new Metric() {
            @Override public String name() { return name; }

            @Override public Map<String, Tensor> init(Engine e) { return zeros(e, "sum", "count"); }

            @Override public Map<String, Tensor> update(Map<String, Tensor> s, Tensor p, Tensor y, Tensor w) {
                Tensor l = loss.perSample(p, y).asType(DType.F32);
                return add(s, "sum", weighted(l, w).sum(), "count", count(p, w));
            }

            @Override public double result(Map<String, Tensor> s) { return ratio(s.get("sum"), s.get("count")); }
        };
    }

    /** Accuracy of binary predictions {@code [batch]} or {@code [batch, 1]}: {@code p > threshold} against targets {@code != 0}. */
    public static Metric binaryAccuracy(double threshold) {
        return new Metric() {
            @Override public String name() { return "binary_accuracy"; }

            @Override public Map<String, Tensor> init(Engine e) { return zeros(e, "correct", "count"); }

            @Override public Map<String, Tensor> update(Map<String, Tensor> s, Tensor p, Tensor y, Tensor w) {
                if (p.size() != y.size()) throw new JBurnException("binaryAccuracy", "predictions " + p.shape() + " and targets " + y.shape() + " differ in size");
                Tensor hit = p.reshape(-1).greater(threshold).equal(y.reshape(-1).notEqual(0.0));
                return add(s, "correct", weighted(hit.asType(DType.F32), w).sum(), "count", count(p, w));
            }

            @Override public double result(Map<String, Tensor> s) { return ratio(s.get("correct"), s.get("count")); }
        };
    }

    /** The confusion matrix {@code [classes, classes]} (row: label, column: prediction); {@link #result} is its trace over its sum (accuracy). */
    public static ConfusionMatrix confusionMatrix(int classes) { return new ConfusionMatrix(classes, ConfusionMatrix.Score.ACCURACY); }

    /** Macro precision over {@code classes}. */
    public static Metric precision(int classes) { return new ConfusionMatrix(classes, ConfusionMatrix.Score.PRECISION); }

    /** Macro recall over {@code classes}. */
    public static Metric recall(int classes) { return new ConfusionMatrix(classes, ConfusionMatrix.Score.RECALL); }

    /** Macro F1 over {@code classes} (the mean of per-class F1). */
    public static Metric f1(int classes) { return new ConfusionMatrix(classes, ConfusionMatrix.Score.F1); }

    /** The confusion-matrix metrics. */
    public static final class ConfusionMatrix implements Metric {
        enum Score { ACCURACY, PRECISION, RECALL, F1 }

        private final int classes;
        private final Score score;

        ConfusionMatrix(int classes, Score score) {
            if (classes < 2) throw new JBurnException("confusionMatrix", "needs at least 2 classes, got " + classes);
            this.classes = classes;
            this.score = score;
        }

        @Override public String name() { return score == Score.ACCURACY ? "confusion_accuracy" : score.name().toLowerCase(java.util.Locale.ROOT); }

        @Override public Map<String, Tensor> init(Engine e) {
            Map<String, Tensor> m = new LinkedHashMap<>();
            m.put("matrix", Tensor.zeros(Shape.of(classes, classes), DType.F32).to(e));
            return m;
        }

        @Override public Map<String, Tensor> update(Map<String, Tensor> s, Tensor p, Tensor y, Tensor w) {
            if (p.rank() != 2 || p.shape().dim(1) != classes) {
                throw new JBurnException(name(), "expects scores [batch, " + classes + "], got " + p.shape());
            }
            Tensor ids = Tensor.iota(Shape.of(1, classes), DType.S32, 1).to(p.engine());
            int n = p.shape().dim(0);
            Tensor truth = weighted(labels(name(), p, y).reshape(n, 1).equal(ids).asType(DType.F32), w == null ? null : w.reshape(n, 1));
            Tensor pred = p.argmax(1).asType(DType.S32).reshape(n, 1).equal(ids).asType(DType.F32);
            Map<String, Tensor> m = new LinkedHashMap<>();
            m.put("matrix", s.get("matrix").add(truth.transpose().dot(pred)));
            return m;
        }

        /** The matrix of a state, row-major: {@code [label][prediction]}. */
        public double[][] matrix(Map<String, Tensor> s) {
            double[] v = s.get("matrix").toDoubleArray();
            double[][] m = new double[classes][classes];
            for (int i = 0; i < classes; i++) System.arraycopy(v, i * classes, m[i], 0, classes);
            return m;
        }

        @Override public double result(Map<String, Tensor> s) {
            double[][] m = matrix(s);
            double total = 0, diag = 0, macro = 0;
            for (int c = 0; c < classes; c++) {
                double tp = m[c][c], row = 0, col = 0;
                for (int j = 0; j < classes; j++) {
                    row += m[c][j];
                    col += m[j][c];
                    total += m[c][j];
                }
                diag += tp;
                double prec = col == 0 ? 0 : tp / col, rec = row == 0 ? 0 : tp / row;
                macro += switch (score) {
                    case PRECISION -> prec;
                    case RECALL -> rec;
                    case F1 -> prec + rec == 0 ? 0 : 2 * prec * rec / (prec + rec);
                    case ACCURACY -> 0;
                };
            }
            return score == Score.ACCURACY ? (total == 0 ? Double.NaN : diag / total) : macro / classes;
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    static Tensor labels(String op, Tensor p, Tensor y) {
        if (p.rank() != 2) throw new JBurnException(op, "expects scores [batch, classes], got " + p.shape());
        if (y.dtype().isInteger() && y.rank() == 1 && y.shape().dim(0) == p.shape().dim(0)) return y.asType(DType.S32);
        if (y.shape().equals(p.shape())) return y.argmax(1).asType(DType.S32);
        throw new JBurnException(op, "expects integer labels [" + p.shape().dim(0) + "] or one-hot targets " + p.shape() + ", got "
                + y.dtype().shortName() + y.shape());
    }

    private static Tensor weighted(Tensor v, Tensor w) { return w == null ? v : v.multiply(w.asType(DType.F32)); }

    private static Tensor count(Tensor p, Tensor w) {
        return w == null ? Tensor.scalar((float) p.shape().dim(0)).to(p.engine()) : w.asType(DType.F32).sum();
    }

    private static Map<String, Tensor> zeros(Engine e, String... names) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        for (String n : names) m.put(n, Tensor.scalar(0f).to(e));
        return m;
    }

    private static Map<String, Tensor> add(Map<String, Tensor> s, String a, Tensor da, String b, Tensor db) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put(a, s.get(a).add(da));
        m.put(b, s.get(b).add(db));
        return m;
    }

    private static double ratio(Tensor num, Tensor den) {
        double d = den.toDoubleArray()[0];
        return d == 0 ? Double.NaN : num.toDoubleArray()[0] / d;
    }
}
