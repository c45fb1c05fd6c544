package dev.jburn.spi;

import java.lang.StackWalker.StackFrame;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * The name of the op the user called, for errors raised where it is not known: a buffer
 * allocation inside a backend, the host-memory budget, a closed tensor found deep inside an op.
 * It is the outermost public method of a public JBurn class ({@code dev.jburn...}) on the stack
 * before the first frame of the user's code: {@code x.pad(...)} that runs out of memory says
 * {@code pad}, {@code Trainer.fit} says {@code fit}, and a traced function's {@code add} says
 * {@code add} (the user's lambda ends the search, not {@code Jit}).
 *
 * <pre>{@code
 * throw new JBurnException(UserOp.name("allocate"), "out of device memory: " + bytes + " bytes");
 * }</pre>
 *
 * Walks the stack, so it belongs on error paths only.
 */
public final class UserOp {
    private UserOp() {}

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /** The op the user called, or {@code fallback} when no public JBurn method is on the stack. */
    public static String name(String fallback) { return name(fallback, null); }

    /**
     * As {@link #name(String)}, but {@code fallback} when the user called a method of {@code owner}
     * itself: {@code Shape.of} names its own errors {@code shape}, while a shape overflowing inside
     * {@code pad} is {@code pad}'s error.
     */
    public static String name(String fallback, Class<?> owner) {
        StackFrame called = WALKER.walk(frames -> {
            StackFrame outermost = null;
            for (StackFrame f : (Iterable<StackFrame>) frames::iterator) {
                Class<?> c = f.getDeclaringClass();
                if (jdk(c)) continue; // streams, reflection, method handles between JBurn frames
                if (!library(c)) break; // the user's code
                if (publicApi(f)) outermost = f;
            }
            return outermost;
        });
        if (called == null || called.getDeclaringClass() == owner) return fallback;
        if (!called.getMethodName().equals("<init>")) return called.getMethodName();
        String cls = called.getDeclaringClass().getSimpleName(); // a constructor: the thing being built, "dense"
        return Character.toLowerCase(cls.charAt(0)) + cls.substring(1);
    }

    /**
     * JBurn's own code. Its test classes (loaded from a {@code test-classes} folder) and the
     * conformance kit ({@code dev.jburn.conformance}) call JBurn as users do, so they count as user code.
     */
    private static boolean library(Class<?> c) {
        return c.getName().startsWith("dev.jburn.") && !c.getName().startsWith("dev.jburn.conformance.") && LIBRARY.get(c);
    }

    private static boolean jdk(Class<?> c) {
        ClassLoader l = c.getClassLoader();
        return l == null || l == ClassLoader.getPlatformClassLoader();
    }

    private static final ClassValue<Boolean> LIBRARY = new ClassValue<>() {
        @Override protected Boolean computeValue(Class<?> c) {
            var source = c.getProtectionDomain().getCodeSource();
            return source == null || source.getLocation() == null || !source.getLocation().getPath().contains("/test-classes/");
        }
    };

    private static boolean publicApi(StackFrame f) {
        Class<?> c = f.getDeclaringClass();
        if (!Modifier.isPublic(c.getModifiers()) || f.getMethodName().startsWith("lambda$")) return false;
        try {
            Class<?>[] params = f.getMethodType().parameterArray();
            if (f.getMethodName().equals("<init>")) return Modifier.isPublic(c.getDeclaredConstructor(params).getModifiers());
            Method m = c.getDeclaredMethod(f.getMethodName(), params);
            return Modifier.isPublic(m.getModifiers()) && !m.isSynthetic();
        } catch (NoSuchMethodException | SecurityException e) {
            return false;
        }
    }
}
