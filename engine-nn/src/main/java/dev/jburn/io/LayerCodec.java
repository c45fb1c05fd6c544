package dev.jburn.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Initializer;
import dev.jburn.nn.Layer;
import dev.jburn.nn.layers.Custom;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Layer records as JSON: {@code {"class": "dev.jburn.nn.layers.Dense", "config": {"units": 8, ...}}},
 * one config field per record component, encoded by the component's declared type: numbers,
 * booleans, strings, enums (by name), {@link DType} and {@link Shape}, arrays and lists of these,
 * nested records (by their components), {@link Activation} ({@code toString}/{@code parse}),
 * {@link Padding} ({@code {"mode", "pairs"}}), {@link Initializer} (its text, see
 * {@link InitializerText}) and nested {@link Layer}s (class and config again).
 *
 * <p>Only records of {@code dev.jburn.nn.layers} in this module are ever loaded: the class name
 * is checked against that package before it is looked up, the class is looked up without being
 * initialized, and it must be a record implementing {@link Layer} from the same module and code
 * source. {@link Custom} layers hold code and are refused on save.
 */
final class LayerCodec {
    private LayerCodec() {}

    static final String PACKAGE = "dev.jburn.nn.layers";
    private static final Pattern CLASS_NAME = Pattern.compile(Pattern.quote(PACKAGE) + "\\.[A-Za-z_][A-Za-z0-9_$]*");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** A fault in encoding or decoding, with the path of the option ({@code "dense_0: units"}); callers add the file. */
    static final class CodecException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CodecException(String message, Throwable cause) { super(message, cause); }
    }

    // ==== save ==================================================================================

    /** {@code {"class": ..., "config": {...}}} of {@code layer}, named {@code where} in errors. */
    static ObjectNode encode(Layer layer, String where) {
        if (layer instanceof Custom) {
            throw fail(where + " is a Custom layer: its computation is Java code, which a model file cannot store; save the parameters"
                    + " with SafeTensors.write(file, state.params()) and rebuild the model in code", null);
        }
        Class<?> c = layer.getClass();
        if (!allowed(c)) {
            throw fail(where + " is a " + c.getName() + "; model files store only the built-in layer records of " + PACKAGE
                    + "; save the parameters with SafeTensors.write and rebuild the model in code", null);
        }
        ObjectNode o = F.objectNode();
        o.put("class", c.getName());
        o.set("config", encodeRecord(layer, where));
        return o;
    }

    private static ObjectNode encodeRecord(Object record, String where) {
        ObjectNode config = F.objectNode();
        for (RecordComponent rc : record.getClass().getRecordComponents()) {
            Object v;
            try {
                var accessor = rc.getAccessor();
                accessor.setAccessible(true);
                v = accessor.invoke(record);
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw fail(where + ": cannot read option '" + rc.getName() + "'", e);
            }
            config.set(rc.getName(), encodeValue(rc.getGenericType(), v, where + ": " + rc.getName()));
        }
        return config;
    }

    private static JsonNode encodeValue(Type type, Object v, String where) {
        if (v == null) return F.nullNode();
        Class<?> raw = raw(type);
        if (v instanceof Layer l && raw == Layer.class) return encode(l, where);
        if (v instanceof Activation a) return F.textNode(a.toString());
        if (v instanceof Initializer i && raw == Initializer.class) return F.textNode(InitializerText.write(i));
        if (v instanceof Padding p) return encodePadding(p);
        if (v instanceof DType t) return F.textNode(t.shortName());
        if (v instanceof Shape s) return intArray(s.dims());
        if (v instanceof Boolean b) return F.booleanNode(b);
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) return F.numberNode(((Number) v).longValue());
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) ? F.numberNode(d) : F.textNode(Double.toString(d));
        }
        if (v instanceof String s) return F.textNode(s);
        if (v instanceof Character ch) return F.textNode(String.valueOf(ch));
        if (v instanceof Enum<?> e) return F.textNode(e.name());
        if (raw.isArray()) {
            ArrayNode a = F.arrayNode();
            Type component = type instanceof GenericArrayType g ? g.getGenericComponentType() : raw.getComponentType();
            for (int i = 0; i < Array.getLength(v); i++) a.add(encodeValue(component, Array.get(v, i), where + "[" + i + "]"));
            return a;
        }
        if (v instanceof List<?> list && type instanceof ParameterizedType pt) {
            ArrayNode a = F.arrayNode();
            for (int i = 0; i < list.size(); i++) a.add(encodeValue(pt.getActualTypeArguments()[0], list.get(i), where + "[" + i + "]"));
            return a;
        }
        if (raw == v.getClass() && dataRecord(raw)) return encodeRecord(v, where);
        throw fail(where + ": an option of type " + type.getTypeName() + " (" + v.getClass().getName() + ") cannot be written to a model file", null);
    }

    private static ObjectNode encodePadding(Padding p) {
        ObjectNode o = F.objectNode();
        o.put("mode", p.mode().name());
        if (p.mode() == Padding.Mode.EXPLICIT) {
            ArrayNode pairs = o.putArray("pairs");
            for (int i = 0; i < p.rank(); i++) pairs.add(intArray(new int[] {p.lo(i), p.hi(i)}));
        }
        return o;
    }

    private static ArrayNode intArray(int[] v) {
        ArrayNode a = F.arrayNode();
        for (int x : v) a.add(x);
        return a;
    }

    // ==== load ==================================================================================

    /** The layer of {@code {"class", "config"}}, after the whitelist check. */
    static Layer decode(JsonNode node, String where) {
        if (node == null || !node.isObject()) throw fail(where + ": a layer must be an object of class and config", null);
        JsonNode cls = node.get("class"), config = node.get("config");
        if (cls == null || !cls.isTextual()) throw fail(where + ": the layer has no class", null);
        Class<?> c = layerClass(cls.asText(), where);
        return (Layer) decodeRecord(c, config, where);
    }

    /** The class of a layer record, only from {@code dev.jburn.nn.layers} of this module. */
    static Class<?> layerClass(String name, String where) {
        if (!CLASS_NAME.matcher(name).matches()) {
            throw fail(where + ": class '" + name + "' is not a layer of " + PACKAGE + "; model files load only the built-in layers", null);
        }
        Class<?> c;
        try {
            c = Class.forName(name, false, Layer.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw fail(where + ": this JBurn has no layer class " + name, e);
        }
        if (!allowed(c) || c == Custom.class) throw fail(where + ": class '" + name + "' is not a built-in layer record", null);
        return c;
    }

    private static boolean allowed(Class<?> c) {
        return c.isRecord() && Layer.class.isAssignableFrom(c) && c.getPackageName().equals(PACKAGE)
                && c.getModule() == Layer.class.getModule() && c.getClassLoader() == Layer.class.getClassLoader()
                && Objects.equals(location(c), location(Layer.class));
    }

    /**
     * A record option (nested in a layer record) of JBurn's own: its class comes from the layer's
     * declared component type, never from the file.
     */
    private static boolean dataRecord(Class<?> c) {
        return c.isRecord() && (c.getModule() == Layer.class.getModule() || c.getModule() == Shape.class.getModule());
    }

    private static Object location(Class<?> c) {
        CodeSource s = c.getProtectionDomain().getCodeSource();
        return s == null ? null : s.getLocation();
    }

    private static Object decodeRecord(Class<?> c, JsonNode config, String where) {
        if (config == null || !config.isObject()) throw fail(where + ": the options of " + c.getSimpleName() + " must be an object", null);
        RecordComponent[] rcs = c.getRecordComponents();
        Object[] args = new Object[rcs.length];
        Class<?>[] types = new Class<?>[rcs.length];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < rcs.length; i++) {
            RecordComponent rc = rcs[i];
            names.add(rc.getName());
            types[i] = rc.getType();
            JsonNode v = config.get(rc.getName());
            if (v == null) throw fail(where + ": option '" + rc.getName() + "' of " + c.getSimpleName() + " is missing", null);
            args[i] = decodeValue(rc.getGenericType(), v, where + ": " + rc.getName());
        }
        for (Iterator<String> it = config.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!names.contains(k)) throw fail(where + ": " + c.getSimpleName() + " has no option '" + k + "'; it has " + names, null);
        }
        try {
            Constructor<?> k = c.getDeclaredConstructor(types);
            k.setAccessible(true);
            return k.newInstance(args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw fail(where + ": " + c.getSimpleName() + " refuses the options " + config + ": " + IoErrors.message(cause), cause);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw fail(where + ": cannot make " + c.getSimpleName() + ": " + IoErrors.message(e), e);
        }
    }

    private static Object decodeValue(Type type, JsonNode n, String where) {
        Class<?> raw = raw(type);
        if (n.isNull()) {
            if (raw.isPrimitive()) throw fail(where + ": must not be null", null);
            return null;
        }
        try {
            if (raw == Layer.class) return decode(n, where);
            if (raw == Activation.class) return Activation.parse(text(n, where));
            if (raw == Initializer.class) return InitializerText.read(text(n, where));
            if (raw == Padding.class) return decodePadding(n, where);
            if (raw == DType.class) return DType.parse(text(n, where));
            if (raw == Shape.class) return Shape.of((int[]) decodeValue(int[].class, n, where));
            if (raw == boolean.class || raw == Boolean.class) {
                if (!n.isBoolean()) throw fail(where + ": expected true or false, got " + n, null);
                return n.booleanValue();
            }
            if (raw == int.class || raw == Integer.class) return (int) integer(n, Integer.MIN_VALUE, Integer.MAX_VALUE, where);
            if (raw == long.class || raw == Long.class) return integer(n, Long.MIN_VALUE, Long.MAX_VALUE, where);
            if (raw == short.class || raw == Short.class) return (short) integer(n, Short.MIN_VALUE, Short.MAX_VALUE, where);
            if (raw == byte.class || raw == Byte.class) return (byte) integer(n, Byte.MIN_VALUE, Byte.MAX_VALUE, where);
            if (raw == double.class || raw == Double.class) return real(n, where);
            if (raw == float.class || raw == Float.class) return (float) real(n, where);
            if (raw == String.class) return text(n, where);
            if (raw == char.class || raw == Character.class) {
                String s = text(n, where);
                if (s.length() != 1) throw fail(where + ": expected one character, got " + n, null);
                return s.charAt(0);
            }
            if (raw.isEnum()) return enumValue(raw, text(n, where), where);
            if (raw.isArray()) {
                if (!n.isArray()) throw fail(where + ": expected an array, got " + n, null);
                Type component = type instanceof GenericArrayType g ? g.getGenericComponentType() : raw.getComponentType();
                Object a = Array.newInstance(raw.getComponentType(), n.size());
                for (int i = 0; i < n.size(); i++) Array.set(a, i, decodeValue(component, n.get(i), where + "[" + i + "]"));
                return a;
            }
            if (raw == List.class && type instanceof ParameterizedType pt) {
                if (!n.isArray()) throw fail(where + ": expected an array, got " + n, null);
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < n.size(); i++) out.add(decodeValue(pt.getActualTypeArguments()[0], n.get(i), where + "[" + i + "]"));
                return java.util.Collections.unmodifiableList(out);
            }
            if (dataRecord(raw)) return decodeRecord(raw, n, where);
        } catch (JBurnException e) {
            throw fail(where + ": " + IoErrors.message(e), e);
        }
        throw fail(where + ": an option of type " + type.getTypeName() + " cannot be read from a model file", null);
    }

    private static Padding decodePadding(JsonNode n, String where) {
        if (!n.isObject()) throw fail(where + ": padding must be an object of mode and pairs", null);
        Padding.Mode mode = enumValue(Padding.Mode.class, text(n.path("mode"), where + ".mode"), where);
        return switch (mode) {
            case VALID -> Padding.VALID;
            case SAME -> Padding.SAME;
            case EXPLICIT -> Padding.explicit((int[][]) decodeValue(int[][].class, n.path("pairs"), where + ".pairs"));
        };
    }

    private static <E> E enumValue(Class<E> type, String name, String where) {
        for (E e : type.getEnumConstants()) if (((Enum<?>) e).name().equals(name)) return e;
        throw fail(where + ": '" + name + "' is not one of " + List.of(type.getEnumConstants()), null);
    }

    private static String text(JsonNode n, String where) {
        if (!n.isTextual()) throw fail(where + ": expected a string, got " + n, null);
        return n.asText();
    }

    private static long integer(JsonNode n, long min, long max, String where) {
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.longValue() < min || n.longValue() > max) {
            throw fail(where + ": expected an integer in [" + min + ", " + max + "], got " + n, null);
        }
        return n.longValue();
    }

    private static double real(JsonNode n, String where) {
        if (n.isNumber()) return n.doubleValue();
        if (n.isTextual()) {
            switch (n.asText()) {
                case "NaN": return Double.NaN;
                case "Infinity": return Double.POSITIVE_INFINITY;
                case "-Infinity": return Double.NEGATIVE_INFINITY;
                default: break;
            }
        }
        throw fail(where + ": expected a number, got " + n, null);
    }

    private static Class<?> raw(Type t) {
        if (t instanceof Class<?> c) return c;
        if (t instanceof ParameterizedType p) return (Class<?>) p.getRawType();
        if (t instanceof GenericArrayType g) return Array.newInstance(raw(g.getGenericComponentType()), 0).getClass();
        return Object.class;
    }

    private static CodecException fail(String message, Throwable cause) { return new CodecException(message, cause); }
}
