package dev.jburn.data;

import dev.jburn.data.CsvOptions.ColumnType;

import java.nio.file.Path;

/** Parsing one CSV value: decimal integers and floats ({@code 1e-3}, {@code .5}, {@code nan}, {@code inf}), surrounding blanks ignored. */
final class CsvNumbers {
    private CsvNumbers() {}

    /** The value of {@code text}; clears {@code allInt[column]} when it is not an integer. */
    static double parse(Path file, String text, int line, int column, String name, ColumnType type, boolean[] allInt) {
        String s = text.strip();
        String where = "line " + line + ", column " + (column + 1) + " ('" + name + "'): ";
        if (s.isEmpty()) throw Csv.fault(file, where + "an empty field, expected a number");
        if (isInteger(s)) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                // beyond 64 bits: a float, below
            }
        }
        if (type == ColumnType.INT) throw Csv.fault(file, where + "'" + clip(s) + "' is not an integer");
        allInt[column] = false;
        String lower = s.toLowerCase(java.util.Locale.ROOT);
        String unsigned = lower.startsWith("-") || lower.startsWith("+") ? lower.substring(1) : lower;
        if (unsigned.equals("nan")) return Double.NaN;
        if (unsigned.equals("inf") || unsigned.equals("infinity")) return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        if (!isDecimal(s)) throw Csv.fault(file, where + "'" + clip(s) + "' is not a number");
        return Double.parseDouble(s);
    }

    private static boolean isInteger(String s) {
        int i = s.charAt(0) == '-' || s.charAt(0) == '+' ? 1 : 0;
        if (i == s.length()) return false;
        for (; i < s.length(); i++) if (!digit(s.charAt(i))) return false;
        return true;
    }

    /** {@code [sign] digits [. digits] [e [sign] digits]} with at least one mantissa digit. */
    private static boolean isDecimal(String s) {
        int i = 0, n = s.length();
        if (s.charAt(i) == '-' || s.charAt(i) == '+') i++;
        int digits = 0;
        while (i < n && digit(s.charAt(i))) { i++; digits++; }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && digit(s.charAt(i))) { i++; digits++; }
        }
        if (digits == 0) return false;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) i++;
            int exp = 0;
            while (i < n && digit(s.charAt(i))) { i++; exp++; }
            if (exp == 0) return false;
        }
        return i == n;
    }

    private static boolean digit(char c) { return c >= '0' && c <= '9'; }

    private static String clip(String s) { return s.length() > 40 ? s.substring(0, 40) + "..." : s; }
}
