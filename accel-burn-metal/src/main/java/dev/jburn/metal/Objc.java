package dev.jburn.metal;

import dev.jburn.JBurnException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The Objective-C runtime through {@code java.lang.foreign}: classes, selectors (registered once,
 * from {@link Sel}), messages through {@code objc_msgSend} bound once per exact signature,
 * autorelease pools, and NSError read into {@link JBurnException}s. Objects are raw {@code id}s
 * ({@link MemorySegment}s); who owns what is the caller's business, written down where it is created.
 *
 * <pre>{@code
 * Objc objc = new Objc(Natives.system());
 * try (Objc.Pool pool = objc.pool()) {
 *     MemorySegment s = objc.string("hello"); // autoreleased: the pool frees it
 * }
 * }</pre>
 */
final class Objc {
    /** {@code MTLSize}: three {@code NSUInteger}s, passed by value. */
    static final MemoryLayout MTL_SIZE = MemoryLayout.structLayout(JAVA_LONG.withName("width"), JAVA_LONG.withName("height"),
            JAVA_LONG.withName("depth"));

    private final Natives natives;
    private final MethodHandle getClass, registerName, poolPush, poolPop;
    /** {@code objc_msgSend} bound once per exact C signature: selectors that share a signature share its handle. */
    private final Map<FunctionDescriptor, MethodHandle> sends = new HashMap<>();
    private final Map<Sel, MemorySegment> selectors = new EnumMap<>(Sel.class);
    private final Map<String, MemorySegment> classes = new HashMap<>();

    Objc(Natives natives) {
        this.natives = natives;
        getClass = natives.downcall(Natives.Library.OBJC, "objc_getClass", FunctionDescriptor.of(ADDRESS, ADDRESS));
        registerName = natives.downcall(Natives.Library.OBJC, "sel_registerName", FunctionDescriptor.of(ADDRESS, ADDRESS));
        poolPush = natives.downcall(Natives.Library.OBJC, "objc_autoreleasePoolPush", FunctionDescriptor.of(ADDRESS));
        poolPop = natives.downcall(Natives.Library.OBJC, "objc_autoreleasePoolPop", FunctionDescriptor.ofVoid(ADDRESS));
    }

    /** The downcall for {@code symbol} of {@code library} (a plain C function such as {@code MTLCreateSystemDefaultDevice}). */
    MethodHandle function(Natives.Library library, String symbol, FunctionDescriptor descriptor) {
        return natives.downcall(library, symbol, descriptor);
    }

    /** Loads {@code library}, registering its classes. */
    void load(Natives.Library library) { natives.load(library); }

    /** The class named {@code name}; a JBurnException when the runtime has none (a framework not loaded). */
    synchronized MemorySegment cls(String name) {
        MemorySegment c = classes.get(name);
        if (c != null) return c;
        try (Arena a = Arena.ofConfined()) {
            c = (MemorySegment) getClass.invokeExact(a.allocateFrom(name));
        } catch (Throwable t) {
            throw rethrow("objc_getClass(" + name + ")", t);
        }
        if (c.equals(MemorySegment.NULL)) throw new JBurnException("metal", "the Objective-C runtime has no class " + name);
        classes.put(name, c);
        return c;
    }

    /** The registered selector of {@code s}. */
    synchronized MemorySegment sel(Sel s) {
        MemorySegment r = selectors.get(s);
        if (r != null) return r;
        try (Arena a = Arena.ofConfined()) {
            r = (MemorySegment) registerName.invokeExact(a.allocateFrom(s.selector));
        } catch (Throwable t) {
            throw rethrow("sel_registerName(" + s.selector + ")", t);
        }
        selectors.put(s, r);
        return r;
    }

    private synchronized MethodHandle sender(Sel s) {
        return sends.computeIfAbsent(s.descriptor, d -> natives.downcall(Natives.Library.OBJC, "objc_msgSend", d));
    }

    /**
     * Sends {@code s} to {@code receiver} with {@code args} (as the selector's descriptor types them) and
     * returns the result: an {@code id} or pointer as a MemorySegment, a long, or null for void.
     */
    Object send(MemorySegment receiver, Sel s, Object... args) {
        if (receiver.equals(MemorySegment.NULL)) throw new JBurnException("metal", "message " + s.selector + " sent to nil");
        Object[] all = new Object[args.length + 2];
        all[0] = receiver;
        all[1] = sel(s);
        System.arraycopy(args, 0, all, 2, args.length);
        try {
            return sender(s).invokeWithArguments(all);
        } catch (Throwable t) {
            throw rethrow("[" + s.selector + "]", t);
        }
    }

    /** {@link #send} for a selector that returns an object or pointer. */
    MemorySegment id(MemorySegment receiver, Sel s, Object... args) { return (MemorySegment) send(receiver, s, args); }

    /** Releases an object this code owns (from {@code alloc}/{@code new...}); nil is ignored. */
    void release(MemorySegment object) {
        if (!object.equals(MemorySegment.NULL)) send(object, Sel.RELEASE);
    }

    /** An autoreleased NSString (call inside a {@link #pool()}). */
    MemorySegment string(String s) {
        try (Arena a = Arena.ofConfined()) {
            return id(cls("NSString"), Sel.STRING_WITH_UTF8, a.allocateFrom(s));
        }
    }

    /** The text of an NSString; empty for nil. */
    String text(MemorySegment nsString) {
        if (nsString.equals(MemorySegment.NULL)) return "";
        MemorySegment utf8 = id(nsString, Sel.UTF8_STRING);
        return utf8.equals(MemorySegment.NULL) ? "" : utf8.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** Throws when {@code errorOut} (an {@code NSError**} passed to {@code op}) holds an error, with its description. */
    void check(MemorySegment errorOut, String op) {
        MemorySegment error = errorOut.get(ADDRESS, 0);
        if (!error.equals(MemorySegment.NULL)) throw new JBurnException(op, text(id(error, Sel.LOCALIZED_DESCRIPTION)));
    }

    /** An autorelease pool: objects autoreleased while it is open are released when it closes. */
    Pool pool() {
        try {
            return new Pool((MemorySegment) poolPush.invokeExact());
        } catch (Throwable t) {
            throw rethrow("objc_autoreleasePoolPush", t);
        }
    }

    /** An open autorelease pool. */
    final class Pool implements AutoCloseable {
        private final MemorySegment token;

        private Pool(MemorySegment token) { this.token = token; }

        @Override
        public void close() {
            try {
                poolPop.invokeExact(token);
            } catch (Throwable t) {
                throw rethrow("objc_autoreleasePoolPop", t);
            }
        }
    }

    private static RuntimeException rethrow(String what, Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new JBurnException("metal", what + " failed: " + t, t);
    }
}
