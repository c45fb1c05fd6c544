package dev.jburn.data;

import dev.jburn.JBurnException;

import java.util.List;

/**
 * How {@link Csv#read} reads a file: whether the first line names the columns, the delimiter,
 * which column holds the label, and optionally the type of each column.
 *
 * <pre>{@code
 * CsvOptions opts = CsvOptions.defaults().label("species").delimiter(';');
 * CsvOptions noHeader = CsvOptions.defaults().header(false).label(0)
 *         .types(ColumnType.INT, ColumnType.FLOAT, ColumnType.FLOAT);
 * }</pre>
 *
 * Defaults: a header line, comma-separated, the label in the last column, types inferred.
 *
 * @param header      whether the first record names the columns
 * @param delimiter   the field separator (not a quote, CR or LF)
 * @param labelName   the label column's name in the header, or null to use {@code labelIndex}
 * @param labelIndex  the label column's index; negative counts from the end ({@code -1}: the last)
 * @param types       the type of each column in file order (label included), or empty to infer all
 */
public record CsvOptions(boolean header, char delimiter, String labelName, int labelIndex, List<ColumnType> types) {
    /**
     * A column's values: {@code INT} every value an integer (a label column gives {@code s32}),
     * {@code FLOAT} any number (a label gives {@code f32}), {@code INFER} {@code INT} when every value is an integer.
     */
    public enum ColumnType { INFER, INT, FLOAT }

    public CsvOptions {
        if (delimiter == '"' || delimiter == '\r' || delimiter == '\n') {
            throw new JBurnException("csv", "the delimiter cannot be a quote, CR or LF, got " + (int) delimiter);
        }
        if (types == null || types.stream().anyMatch(java.util.Objects::isNull)) {
            throw new JBurnException("csv", "column types must not be null (use INFER)");
        }
        types = List.copyOf(types);
    }

    /** A header, commas, the label last, types inferred. */
    public static CsvOptions defaults() { return new CsvOptions(true, ',', null, -1, List.of()); }

    /** With or without a header line. */
    public CsvOptions header(boolean present) { return new CsvOptions(present, delimiter, labelName, labelIndex, types); }

    /** With another delimiter ({@code ';'}, {@code '\t'}). */
    public CsvOptions delimiter(char c) { return new CsvOptions(header, c, labelName, labelIndex, types); }

    /** The label in the column named {@code name} in the header. */
    public CsvOptions label(String name) { return new CsvOptions(header, delimiter, name, labelIndex, types); }

    /** The label in column {@code index} (0-based; negative counts from the end). */
    public CsvOptions label(int index) { return new CsvOptions(header, delimiter, null, index, types); }

    /** The type of every column, in file order. */
    public CsvOptions types(ColumnType... columnTypes) { return new CsvOptions(header, delimiter, labelName, labelIndex, java.util.Arrays.asList(columnTypes)); }
}
