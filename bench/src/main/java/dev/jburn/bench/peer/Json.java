package dev.jburn.bench.peer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the peer processes exchange with PeerBench (one object per line): a parser giving
 * {@code Map}/{@code List}/{@code String}/{@code Double}/{@code Boolean}/{@code null}, and string quoting.
 */
final class Json {
    private final String text;
    private int pos;

    private Json(String text) { this.text = text; }

    /** Parses one JSON value. */
    static Object parse(String text) {
        Json p = new Json(text);
        Object v = p.value();
        p.skipSpace();
        if (p.pos != text.length()) throw p.error("trailing text");
        return v;
    }

    /** A JSON string literal for {@code s}. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    private Object value() {
        skipSpace();
        if (pos >= text.length()) throw error("unexpected end");
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        pos++;
        skipSpace();
        if (peek() == '}') { pos++; return m; }
        while (true) {
            skipSpace();
            String key = string();
            skipSpace();
            expect(':');
            m.put(key, value());
            skipSpace();
            if (peek() == ',') { pos++; continue; }
            expect('}');
            return m;
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        pos++;
        skipSpace();
        if (peek() == ']') { pos++; return l; }
        while (true) {
            l.add(value());
            skipSpace();
            if (peek() == ',') { pos++; continue; }
            expect(']');
            return l;
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') return b.toString();
            if (c != '\\') { b.append(c); continue; }
            char e = text.charAt(pos++);
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> { b.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16)); pos += 4; }
                default -> b.append(e);
            }
        }
        throw error("unterminated string");
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) throw error("expected " + word);
        pos += word.length();
        return value;
    }

    private Double number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eEinfatyNIn".indexOf(text.charAt(pos)) >= 0) pos++;
        String s = text.substring(start, pos);
        try {
            return switch (s) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> Double.valueOf(s);
            };
        } catch (NumberFormatException e) {
            throw error("bad number '" + s + "'");
        }
    }

    private char peek() { return pos < text.length() ? text.charAt(pos) : '\0'; }

    private void expect(char c) {
        if (peek() != c) throw error("expected '" + c + "'");
        pos++;
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON at " + pos + " (" + what + "): " + text);
    }
}
