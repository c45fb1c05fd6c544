package dev.jburn.io;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Initializer;
import dev.jburn.nn.Initializers;

import java.util.List;

/**
 * Initializers in model files, by their {@code toString()}. The built-in {@link Initializers}
 * ({@code "glorot_uniform"}, {@code "constant(0.5)"}, {@code "variance_scaling(2.0, FAN_IN, UNIFORM)"})
 * come back as themselves; any other (a lambda) comes back as an {@link Unrestored} placeholder
 * that keeps the text and fails if {@code init} ever calls it. Loaded models have their
 * parameters, so initializers matter only for a later {@code init}.
 */
final class InitializerText {
    private InitializerText() {}

    /**
     * An initializer that a model file could not restore: it prints as the original and throws on use.
     *
     * @param text the original's {@code toString()}
     */
    record Unrestored(String text) implements Initializer {
        @Override public Tensor init(Tensor key, Shape shape, DType dtype) {
            throw new JBurnException("init", "the initializer '" + text + "' of a loaded model is not a built-in one and was not"
                    + " stored in the model file; give the layer a new initializer before calling init");
        }

        @Override public String toString() { return text; }
    }

    static String write(Initializer i) { return i.toString(); }

    static Initializer read(String text) {
        try {
            Initializer i = parse(text.trim());
            if (i != null && i.toString().equals(text)) return i;
        } catch (RuntimeException ignored) {
            // not a built-in initializer's text
        }
        return new Unrestored(text);
    }

    private static Initializer parse(String s) {
        int open = s.indexOf('(');
        String name = open < 0 ? s : s.substring(0, open);
        List<String> a = open < 0 || !s.endsWith(")") ? List.of() : List.of(s.substring(open + 1, s.length() - 1).split(",\\s*"));
        return switch (name) {
            case "zeros" -> Initializers.zeros();
            case "ones" -> Initializers.ones();
            case "glorot_uniform" -> Initializers.glorotUniform();
            case "glorot_normal" -> Initializers.glorotNormal();
            case "he_uniform" -> Initializers.heUniform();
            case "he_normal" -> Initializers.heNormal();
            case "lecun_uniform" -> Initializers.lecunUniform();
            case "lecun_normal" -> Initializers.lecunNormal();
            case "constant" -> Initializers.constant(num(a, 0));
            case "uniform" -> Initializers.uniform(num(a, 0), num(a, 1));
            case "normal" -> Initializers.normal(num(a, 0), num(a, 1));
            case "truncated_normal" -> Initializers.truncatedNormal(num(a, 0), num(a, 1));
            case "orthogonal" -> Initializers.orthogonal(num(a, 0));
            case "variance_scaling" -> Initializers.varianceScaling(num(a, 0), Initializers.FanMode.valueOf(a.get(1)),
                    Initializers.Distribution.valueOf(a.get(2)));
            default -> null;
        };
    }

    private static double num(List<String> args, int i) { return Double.parseDouble(args.get(i)); }
}
