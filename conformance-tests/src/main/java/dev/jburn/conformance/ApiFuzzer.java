package dev.jburn.conformance;

import dev.jburn.JBurnException;
import dev.jburn.spi.HostMemory;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A bounded random caller of JBurn's public entry points, as a careless new user would be: random
 * shapes (rank 0, zero-size and 2³¹-sized axes, mismatched pairs), random dtypes and axes, nulls,
 * closed tensors, hostile option values and file contents. Each call must return, or throw a
 * {@link JBurnException} whose {@link JBurnException#op() op} names the method the user called;
 * anything else is a finding.
 *
 * <pre>{@code
 * ApiFuzzer.Report r = new ApiFuzzer(ApiFuzzer.defaultEntryPoints(), 42).run(20_000);
 * assertEquals(0, r.others() + r.misnamed(), r.summary());
 * }</pre>
 *
 * While it runs it holds all but {@link #HEADROOM} bytes of the {@link HostMemory} budget, so that
 * a call asking for gigabytes fails at the budget (as it must) instead of taking the machine's memory.
 */
public final class ApiFuzzer {
    /** Host memory left free for the calls while the fuzzer runs. */
    public static final long HEADROOM = 64L << 20;

    /** {@code -Djburn.fuzz.trace=true} prints each call before it runs (to find one that hangs). */
    private static final boolean TRACE = Boolean.getBoolean("jburn.fuzz.trace");

    private static final Set<String> SKIP = Set.of("wait", "notify", "notifyAll", "getClass", "hashCode", "equals",
            "close", "scope", "keep", "backend", "write", "save", "toArray");

    private final List<Executable> entryPoints;
    private final FuzzValues values;
    private final SplittableRandom rnd;
    private final long seed;

    /** A fuzzer over {@code entryPoints} (public methods and constructors) drawing from {@code seed}. */
    public ApiFuzzer(List<Executable> entryPoints, long seed) {
        this.entryPoints = entryPoints.stream().filter(ApiFuzzer::callable).toList();
        this.seed = seed;
        this.rnd = new SplittableRandom(seed);
        this.values = new FuzzValues(rnd);
    }

    /**
     * The public entry points of engine-api ({@code Tensor} and its op families, {@code LinAlg},
     * the random-number class, {@code Shape}, {@code Padding}, {@code ConvOptions}, {@code WindowOptions}) and of
     * engine-nn (layer constructors and the file readers).
     */
    public static List<Executable> defaultEntryPoints() {
        List<Executable> out = new ArrayList<>();
        for (Class<?> c : FuzzValues.API_CLASSES) {
            for (Method m : c.getMethods()) {
                if (m.getDeclaringClass().getPackageName().startsWith("dev.jburn")) out.add(m);
            }
            for (Constructor<?> k : c.getConstructors()) out.add(k);
        }
        out.sort(java.util.Comparator.comparing(Executable::toGenericString));
        return out;
    }

    private static boolean callable(Executable e) {
        if (SKIP.contains(e.getName()) || e.isSynthetic()) return false;
        for (Class<?> p : e.getParameterTypes()) if (!FuzzValues.generates(p)) return false;
        return true;
    }

    /** What a run found. */
    public record Report(long seed, int calls, int returned, int jburnExceptions, int others, int misnamed,
                         TreeMap<String, Integer> findings, TreeMap<String, String> examples,
                         String slowest, long slowestMillis) {
        /** The counts and the distinct findings, most frequent first. */
        public String summary() {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                    "seed %d: %d calls, %d returned, %d JBurnException, %d other throwables, %d misnamed ops; slowest %d ms: %s",
                    seed, calls, returned, jburnExceptions, others, misnamed, slowestMillis, slowest));
            findings.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(200)
                    .forEach(f -> sb.append("\n  ").append(f.getValue()).append("x ").append(f.getKey())
                            .append("   e.g. ").append(examples.get(f.getKey())));
            return sb.toString();
        }
    }

    /** Makes {@code calls} random calls. */
    public Report run(int calls) {
        long held = Math.max(0, HostMemory.limit() - HostMemory.live() - HEADROOM);
        HostMemory.reserve("fuzz", held);
        int returned = 0, jburn = 0, others = 0, misnamed = 0;
        TreeMap<String, Integer> findings = new TreeMap<>();
        TreeMap<String, String> examples = new TreeMap<>();
        long slowestNanos = 0;
        String slowest = "";
        try {
            for (int i = 0; i < calls; i++) {
                Executable e = entryPoints.get(rnd.nextInt(entryPoints.size()));
                Object receiver = null;
                Object[] args;
                try {
                    receiver = e instanceof Method m && !Modifier.isStatic(m.getModifiers()) ? values.receiver(m.getDeclaringClass()) : null;
                    args = values.arguments(e);
                } catch (JBurnException setup) {
                    continue; // a generated value the API itself refuses (an overflowing shape): draw again
                }
                if (e instanceof Method m && !Modifier.isStatic(m.getModifiers()) && receiver == null) continue;
                String call = label(e) + FuzzValues.describe(args);
                if (TRACE) System.err.println("fuzz call " + i + ": " + call);
                long start = System.nanoTime();
                Throwable thrown = invoke(e, receiver, args);
                long took = System.nanoTime() - start;
                if (took > slowestNanos) {
                    slowestNanos = took;
                    slowest = call;
                }
                if (thrown == null) {
                    returned++;
                } else if (thrown instanceof JBurnException j) {
                    jburn++;
                    if (!namesOp(e, j)) {
                        misnamed++;
                        findings.merge(label(e) + " -> op '" + j.op() + "'", 1, Integer::sum);
                        examples.putIfAbsent(label(e) + " -> op '" + j.op() + "'", clip(j.reason()));
                    }
                } else {
                    others++;
                    String key = label(e) + " -> " + thrown.getClass().getSimpleName();
                    findings.merge(key, 1, Integer::sum);
                    examples.putIfAbsent(key, FuzzValues.describe(args) + ": " + clip(String.valueOf(thrown.getMessage())));
                }
                values.release();
            }
        } finally {
            HostMemory.release(held);
            values.release();
        }
        return new Report(seed, calls, returned, jburn, others, misnamed, findings, examples, slowest, slowestNanos / 1_000_000);
    }

    private Throwable invoke(Executable e, Object receiver, Object[] args) {
        try {
            Object result = e instanceof Method m ? m.invoke(receiver, args) : ((Constructor<?>) e).newInstance(args);
            values.consume(result);
            return null;
        } catch (InvocationTargetException x) {
            return x.getCause();
        } catch (ReflectiveOperationException | IllegalArgumentException x) {
            throw new IllegalStateException("the fuzzer built a bad call of " + e + ": " + x, x);
        } catch (OutOfMemoryError | StackOverflowError x) {
            return x;
        }
    }

    /**
     * Whether {@code e} names the method called: its op is the method's name (case and underscores
     * aside, so {@code window_scatter_min} names {@code windowScatterMin}) or, for a method of an
     * options, value, layer or file class, that class's name ({@code conv} for {@code ConvOptions.withStrides}).
     */
    static boolean namesOp(Executable called, JBurnException e) {
        String op = norm(e.op());
        String method = norm(called.getName());
        Class<?> c = called.getDeclaringClass();
        Class<?>[] params = called.getParameterTypes();
        // apply(BinaryOp.ADD, ...) is 'add'; Shape.broadcast("add", ...) names the op its caller gives
        if (method.equals("apply") || (c == dev.jburn.Shape.class && params.length > 0 && params[0] == String.class)) return true;
        if (op.isEmpty()) return false;
        if (op.equals(method) || method.startsWith(op)) return true; // normalSplit is 'normal'
        if (FuzzValues.NAMED_BY_METHOD.contains(c)) return false;
        String cls = norm(c.getSimpleName());
        return cls.contains(op) || op.contains(cls) || op.equals(FuzzValues.OP_OF_CLASS.get(c));
    }

    private static String norm(String s) { return s == null ? "" : s.toLowerCase(Locale.ROOT).replace("_", "").replace(" ", ""); }

    private static String label(Executable e) {
        return e.getDeclaringClass().getSimpleName() + "." + (e instanceof Constructor<?> ? "<init>" : e.getName())
                + Arrays.stream(e.getParameterTypes()).map(Class::getSimpleName).toList().toString().replace('[', '(').replace(']', ')');
    }

    private static String clip(String s) { return s.length() > 160 ? s.substring(0, 160) + "..." : s; }
}
