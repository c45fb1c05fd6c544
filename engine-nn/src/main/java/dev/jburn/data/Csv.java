package dev.jburn.data;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.data.CsvOptions.ColumnType;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A numeric CSV file (RFC 4180 quoting, UTF-8, plain or gzip) as a dataset: every column but the
 * label becomes a feature, {@code x f32[n, columns - 1]}; the label column becomes
 * {@code y s32[n]} when its values are integers (or it is typed {@code INT}), else {@code f32[n]}.
 *
 * <pre>{@code
 * TensorDataset d = Csv.read(Path.of("iris.csv"), CsvOptions.defaults().label("class"));
 * }</pre>
 *
 * Faults name the file and where: a row with the wrong number of fields (its line), a value
 * that is not a number or not an integer in an {@code INT} column (line and column), an empty
 * file, a header without rows. Blank lines are skipped.
 */
public final class Csv {
    private Csv() {}

    /** The dataset in {@code file}. */
    public static TensorDataset read(Path file, CsvOptions options) {
        if (options == null) throw new JBurnException("csv", "options must not be null (CsvOptions.defaults() reads a headed, comma-separated file)");
        try (DataFiles.Opened f = DataFiles.open("csv", file);
             BufferedReader reader = new BufferedReader(new InputStreamReader(f.in(), StandardCharsets.UTF_8.newDecoder()
                     .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)))) {
            reader.mark(1);
            if (reader.read() != '\uFEFF') reader.reset();
            return read(new CsvRecords(reader, file, options.delimiter()), file, options);
        } catch (CharacterCodingException e) {
            throw DataFiles.fault("csv", file, "is not valid UTF-8 (" + DataFiles.describe(e) + ")", e);
        } catch (IOException e) {
            throw DataFiles.fault("csv", file, "cannot be read (" + DataFiles.describe(e) + ")", e);
        }
    }

    private static TensorDataset read(CsvRecords records, Path file, CsvOptions o) throws IOException {
        CsvRecords.Row first = nextRow(records);
        if (first == null) throw fault(file, "empty file");
        int width = first.fields().size();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < width; i++) names.add(o.header() ? first.fields().get(i).trim() : "column " + (i + 1));
        int label = labelColumn(file, o, names);
        if (width < 2) throw fault(file, "needs a label column and at least one feature column, got " + width + " column");
        if (!o.types().isEmpty() && o.types().size() != width) {
            throw fault(file, o.types().size() + " column types given for " + width + " columns");
        }
        boolean[] allInt = new boolean[width];
        Arrays.fill(allInt, true);
        double[] values = new double[16 * width];
        int n = 0;
        for (CsvRecords.Row row = o.header() ? nextRow(records) : first; row != null; row = nextRow(records)) {
            if (row.fields().size() != width) {
                throw fault(file, "line " + row.line() + ": " + row.fields().size() + " fields, expected " + width);
            }
            if ((long) (n + 1) * width > values.length) {
                if ((long) (n + 1) * width > Integer.MAX_VALUE - 8) throw fault(file, "too many values for one tensor");
                values = Arrays.copyOf(values, (int) Math.min(Integer.MAX_VALUE - 8, 2L * values.length));
            }
            for (int c = 0; c < width; c++) {
                ColumnType type = o.types().isEmpty() ? ColumnType.INFER : o.types().get(c);
                values[n * width + c] = CsvNumbers.parse(file, row.fields().get(c), row.line(), c, names.get(c), type, allInt);
            }
            n++;
        }
        if (n == 0) throw fault(file, "a header and no data rows");
        ColumnType labelType = o.types().isEmpty() ? ColumnType.INFER : o.types().get(label);
        boolean intLabel = labelType == ColumnType.INT || (labelType == ColumnType.INFER && allInt[label]);
        return dataset(file, values, n, width, label, intLabel, names.get(label));
    }

    private static CsvRecords.Row nextRow(CsvRecords records) throws IOException {
        CsvRecords.Row r;
        do r = records.next(); while (r != null && r.blank());
        return r;
    }

    private static int labelColumn(Path file, CsvOptions o, List<String> names) {
        if (o.labelName() != null) {
            if (!o.header()) throw fault(file, "a label column by name ('" + o.labelName() + "') needs a header line");
            int i = names.indexOf(o.labelName());
            if (i < 0) throw fault(file, "no column named '" + o.labelName() + "' in the header " + names);
            return i;
        }
        int i = o.labelIndex() < 0 ? names.size() + o.labelIndex() : o.labelIndex();
        if (i < 0 || i >= names.size()) throw fault(file, "label column " + o.labelIndex() + " is outside the " + names.size() + " columns");
        return i;
    }

    private static TensorDataset dataset(Path file, double[] v, int n, int width, int label, boolean intLabel, String labelName) {
        int features = width - 1;
        float[] x = new float[n * features];
        for (int r = 0, k = 0; r < n; r++) {
            for (int c = 0; c < width; c++) if (c != label) x[k++] = (float) v[r * width + c];
        }
        Tensor xs;
        try (Tensor flat = Tensor.of(x)) {
            xs = flat.reshape(n, features);
        }
        if (!intLabel) {
            float[] y = new float[n];
            for (int r = 0; r < n; r++) y[r] = (float) v[r * width + label];
            return TensorDataset.of(xs, Tensor.of(y));
        }
        int[] y = new int[n];
        for (int r = 0; r < n; r++) {
            double d = v[r * width + label];
            if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) throw fault(file, "label " + (long) d + " in row " + (r + 1) + " of '" + labelName + "' does not fit s32");
            y[r] = (int) d;
        }
        return TensorDataset.of(xs, Tensor.of(y));
    }

    static JBurnException fault(Path file, String what) { return DataFiles.fault("csv", file, what); }
}
