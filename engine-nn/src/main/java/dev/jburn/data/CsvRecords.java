package dev.jburn.data;

import dev.jburn.JBurnException;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Records of a CSV file per RFC 4180: fields separated by a delimiter, records by CRLF, LF or CR;
 * a field in double quotes may hold delimiters, line breaks and doubled quotes ({@code ""}).
 * A quote inside an unquoted field, text after a closing quote, or a quote never closed is a fault.
 */
final class CsvRecords {
    /** One record: its fields and the line it starts on (1-based). */
    record Row(List<String> fields, int line) {
        boolean blank() { return fields.size() == 1 && fields.getFirst().isEmpty(); }
    }

    private final Reader in;
    private final Path file;
    private final char delimiter;
    private int line = 1;
    private int peeked = -2;

    CsvRecords(Reader in, Path file, char delimiter) {
        this.in = in;
        this.file = file;
        this.delimiter = delimiter;
    }

    /** The next record, or null at the end of the file. */
    Row next() throws IOException {
        int c = read();
        if (c < 0) return null;
        unread(c);
        int start = line;
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        while (true) {
            c = read();
            if (c == '"' && field.isEmpty()) {
                readQuoted(field, start, fields.size() + 1);
                c = read();
                if (c >= 0 && c != delimiter && c != '\n' && c != '\r') {
                    throw fault("line " + line + ": text after the closing quote of field " + (fields.size() + 1));
                }
            } else {
                while (c >= 0 && c != delimiter && c != '\n' && c != '\r') {
                    if (c == '"') throw fault("line " + line + ": a quote inside the unquoted field " + (fields.size() + 1));
                    field.append((char) c);
                    c = read();
                }
            }
            fields.add(field.toString());
            field.setLength(0);
            if (c == delimiter) continue;
            if (c == '\r') {
                int d = read();
                if (d != '\n') unread(d);
            }
            if (c >= 0) line++;
            return new Row(fields, start);
        }
    }

    private void readQuoted(StringBuilder field, int start, int index) throws IOException {
        while (true) {
            int c = read();
            if (c < 0) throw fault("line " + start + ": the quoted field " + index + " is never closed");
            if (c == '"') {
                int d = read();
                if (d != '"') {
                    unread(d);
                    return;
                }
            } else if (c == '\n' || (c == '\r' && !crlf())) {
                line++;
            }
            field.append((char) c);
        }
    }

    /** After a CR inside quotes: whether an LF follows (then the LF counts the line). */
    private boolean crlf() throws IOException {
        int d = read();
        unread(d);
        return d == '\n';
    }

    private int read() throws IOException {
        if (peeked != -2) {
            int c = peeked;
            peeked = -2;
            return c;
        }
        return in.read();
    }

    private void unread(int c) { peeked = c; }

    private JBurnException fault(String what) { return DataFiles.fault("csv", file, what); }
}
