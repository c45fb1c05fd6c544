package dev.jburn.metal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A fake Objective-C runtime and Metal, as {@link Natives}: every downcall the bridge binds becomes a
 * Java method that records the call (symbol, exact descriptor, selector, arguments) and acts like the
 * real thing closely enough for the bridge's logic: objects with retain counts ({@code alloc} and
 * {@code new...} give +1, autoreleased ones die when their pool is popped), shared buffers with real
 * memory, compile errors reported through {@code NSError**}.
 */
final class FakeObjc implements Natives {
    /** One message or function call. */
    record Call(String symbol, String selector, FunctionDescriptor descriptor, String receiverClass, List<Object> args) {}

    /** A fake object. */
    static final class Obj {
        final String cls;
        int refs = 1;
        MemorySegment memory = MemorySegment.NULL; // a buffer's contents, a string's UTF-8
        Object value; // options: fast math; string: its text; library: its source; function, pipeline: {source, entry}; encoder: its state

        Obj(String cls) { this.cls = cls; }
    }

    final List<Call> calls = new ArrayList<>();
    final Map<Long, Obj> objects = new LinkedHashMap<>();
    private final Map<Long, String> selectors = new HashMap<>(), classes = new HashMap<>();
    private final Deque<List<Obj>> pools = new ArrayDeque<>();
    private final Arena memory = Arena.ofShared();
    private long next = 0x10_0000;

    /** When set, newLibraryWithSource fails with this compiler log. */
    String compileError;
    /**
     * What a dispatch runs: nothing unless a test sets one ({@link ClangGpu} runs the MSL on the CPU).
     * Called at {@code dispatchThreadgroups:threadsPerThreadgroup:} with the encoder's state.
     */
    interface Gpu {
        /**
         * Runs {@code entry} of {@code source} over {@code groups} threadgroups of {@code groupSize} threads,
         * with the buffers bound at indices 0.. and the element count {@code n} from {@code setBytes}.
         */
        void run(String source, String entry, List<MemorySegment> buffers, int n, long groups, long groupSize);

        /** What {@code MPSMatrixMultiplication} encodes: row-major {@code c[m,n] = a[m,k] · b[k,n]} of the MPS data type {@code type}. */
        void multiply(MemorySegment a, MemorySegment b, MemorySegment c, long m, long n, long k, int type);
    }

    /** An MPSMatrix: its buffer's memory and its descriptor's rows, columns, row bytes and data type. */
    private record Matrix(MemorySegment memory, long[] shape) {}

    /** The GPU that dispatches run on; null: they do nothing. */
    Gpu gpu;

    /** What a compute encoder has been given so far. */
    private static final class Encoder {
        String[] pipeline; // source, entry
        final Map<Long, MemorySegment> buffers = new java.util.TreeMap<>();
        int n;
    }

    /** The {@code MTLGPUFamily} values {@code supportsFamily:} says yes to: an M1-class GPU (Apple7, which has Apple6's, and Metal3). */
    java.util.Set<Long> families = new java.util.HashSet<>(java.util.Set.of(MetalFeatures.APPLE6, MetalFeatures.APPLE7, MetalFeatures.METAL3));

    /** What {@code maxTotalThreadsPerThreadgroup} answers for every pipeline. */
    long maxThreads = 1024;
    /** When set, {@code MTLCreateSystemDefaultDevice} returns nil (a Mac without a Metal GPU). */
    boolean noDevice;
    /** The status the command buffer reports ({@link MetalDevice#STATUS_COMPLETED} unless a test wants a GPU error). */
    long commandStatus = MetalDevice.STATUS_COMPLETED;

    private static final MethodHandle CALL;

    static {
        try {
            CALL = MethodHandles.lookup().findVirtual(FakeObjc.class, "call",
                    MethodType.methodType(Object.class, String.class, FunctionDescriptor.class, Object[].class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Libraries loaded for their classes. */
    final List<Library> loaded = new ArrayList<>();

    /** One downcall handle the bridge asked for. */
    record Binding(Library library, String symbol, FunctionDescriptor descriptor) {}

    /** Every downcall handle the bridge asked for, in order. */
    final List<Binding> bindings = new ArrayList<>();

    @Override
    public void load(Library library) { loaded.add(library); }

    @Override
    public MethodHandle downcall(Library library, String symbol, FunctionDescriptor descriptor) {
        bindings.add(new Binding(library, symbol, descriptor));
        MethodType type = descriptor.toMethodType();
        MethodHandle h = MethodHandles.insertArguments(CALL.bindTo(this), 0, symbol, descriptor)
                .asCollector(Object[].class, type.parameterCount());
        if (type.returnType() == void.class) h = MethodHandles.dropReturn(h);
        return h.asType(type);
    }

    private MemorySegment id() { return MemorySegment.ofAddress(next += 0x10); }

    private MemorySegment make(String cls, boolean autoreleased) {
        MemorySegment id = id();
        Obj o = new Obj(cls);
        objects.put(id.address(), o);
        if (autoreleased) {
            if (pools.isEmpty()) throw new AssertionError(cls + " autoreleased with no pool open: it leaks");
            pools.peek().add(o);
        }
        return id;
    }

    private MemorySegment string(String text, boolean autoreleased) {
        MemorySegment id = make("NSString", autoreleased);
        Obj o = objects.get(id.address());
        o.value = text;
        o.memory = memory.allocateFrom(text);
        return id;
    }

    private MemorySegment withValue(MemorySegment id, Object value) {
        objects.get(id.address()).value = value;
        return id;
    }

    Obj obj(Object id) {
        Obj o = objects.get(((MemorySegment) id).address());
        if (o == null) throw new AssertionError("message to an unknown object " + id);
        if (o.refs <= 0) throw new AssertionError("message to a released " + o.cls);
        return o;
    }

    /** The selectors of objc_msgSend calls, in order. */
    List<String> selectorsSent() {
        return calls.stream().filter(c -> c.selector() != null).map(Call::selector).toList();
    }

    /** Objects not released (alloc/new without release, or autoreleased in a pool never popped). */
    List<String> leaks() {
        return objects.values().stream().filter(o -> o.refs != 0).map(o -> o.cls + " (refs " + o.refs + ")").toList();
    }

    int openPools() { return pools.size(); }

    @SuppressWarnings("unused") // called through CALL
    private Object call(String symbol, FunctionDescriptor fd, Object[] a) {
        switch (symbol) {
            case "objc_getClass" -> {
                String name = ((MemorySegment) a[0]).reinterpret(Long.MAX_VALUE).getString(0);
                MemorySegment c = id();
                classes.put(c.address(), name);
                calls.add(new Call(symbol, null, fd, null, List.of(name)));
                return c;
            }
            case "sel_registerName" -> {
                String name = ((MemorySegment) a[0]).reinterpret(Long.MAX_VALUE).getString(0);
                MemorySegment s = id();
                selectors.put(s.address(), name);
                return s;
            }
            case "objc_autoreleasePoolPush" -> {
                pools.push(new ArrayList<>());
                calls.add(new Call(symbol, null, fd, null, List.of()));
                return MemorySegment.ofAddress(pools.size());
            }
            case "objc_autoreleasePoolPop" -> {
                if (((MemorySegment) a[0]).address() != pools.size()) throw new AssertionError("pools popped out of order");
                for (Obj o : pools.pop()) o.refs--;
                calls.add(new Call(symbol, null, fd, null, List.of()));
                return null;
            }
            case "MTLCreateSystemDefaultDevice" -> {
                calls.add(new Call(symbol, null, fd, null, List.of()));
                return noDevice ? MemorySegment.NULL : make("MTLDevice", false);
            }
            case "objc_msgSend" -> { return message(fd, a); }
            default -> throw new AssertionError("unexpected symbol " + symbol);
        }
    }

    private Object message(FunctionDescriptor fd, Object[] a) {
        String sel = selectors.get(((MemorySegment) a[1]).address());
        if (sel == null) throw new AssertionError("a selector that sel_registerName did not return");
        long receiver = ((MemorySegment) a[0]).address();
        String cls = classes.containsKey(receiver) ? classes.get(receiver) : obj(a[0]).cls;
        calls.add(new Call("objc_msgSend", sel, fd, cls, List.of(a).subList(2, a.length)));
        return switch (sel) {
            case "alloc" -> make(classes.get(receiver), false);
            case "init" -> a[0];
            case "release" -> {
                obj(a[0]).refs--;
                yield null;
            }
            case "stringWithUTF8String:" -> {
                String text = ((MemorySegment) a[2]).reinterpret(Long.MAX_VALUE).getString(0);
                // Record the text: the C string dies with the bridge's arena (an MSL source, a kernel's name).
                calls.set(calls.size() - 1, new Call("objc_msgSend", sel, fd, cls, List.of(text)));
                yield string(text, true);
            }
            case "UTF8String" -> obj(a[0]).memory;
            case "name" -> string("Fake Apple GPU", true);
            case "localizedDescription" -> string((String) obj(a[0]).value, true);
            case "newCommandQueue" -> make("MTLCommandQueue", false);
            case "newBufferWithLength:options:" -> {
                MemorySegment b = make("MTLBuffer", false);
                objects.get(b.address()).memory = memory.allocate((long) a[2], 16);
                yield b;
            }
            case "contents" -> obj(a[0]).memory;
            case "supportsFamily:" -> families.contains((long) a[2]);
            case "setFastMathEnabled:" -> {
                obj(a[0]).value = a[2];
                yield null;
            }
            case "newLibraryWithSource:options:error:" -> {
                if (compileError != null) {
                    MemorySegment err = make("NSError", true);
                    objects.get(err.address()).value = compileError;
                    ((MemorySegment) a[4]).reinterpret(8).set(ADDRESS, 0, err);
                    yield MemorySegment.NULL;
                }
                yield withValue(make("MTLLibrary", false), obj(a[2]).value);
            }
            case "newFunctionWithName:" -> withValue(make("MTLFunction", false), new String[] {(String) obj(a[0]).value, (String) obj(a[2]).value});
            case "newComputePipelineStateWithFunction:error:" -> withValue(make("MTLComputePipelineState", false), obj(a[2]).value);
            case "commandBuffer" -> make("MTLCommandBuffer", true);
            case "computeCommandEncoder" -> withValue(make("MTLComputeCommandEncoder", true), new Encoder());
            case "setComputePipelineState:" -> {
                ((Encoder) obj(a[0]).value).pipeline = (String[]) obj(a[2]).value;
                yield null;
            }
            case "setBuffer:offset:atIndex:" -> {
                ((Encoder) obj(a[0]).value).buffers.put((long) a[4], obj(a[2]).memory.asSlice((long) a[3]));
                yield null;
            }
            case "endEncoding", "commit", "waitUntilCompleted" -> null;
            case "maxTotalThreadsPerThreadgroup" -> maxThreads;
            case "setBytes:length:atIndex:" -> {
                ((Encoder) obj(a[0]).value).n = ((MemorySegment) a[2]).reinterpret((long) a[3]).get(JAVA_INT, 0);
                // Record the bytes: the segment dies with the bridge's arena.
                calls.set(calls.size() - 1, new Call("objc_msgSend", sel, fd, cls,
                        List.of(((MemorySegment) a[2]).reinterpret((long) a[3]).get(JAVA_INT, 0), a[3], a[4])));
                yield null;
            }
            case "dispatchThreadgroups:threadsPerThreadgroup:" -> {
                Encoder e = (Encoder) obj(a[0]).value;
                if (gpu != null) {
                    gpu.run(e.pipeline[0], e.pipeline[1], List.copyOf(e.buffers.values()), e.n,
                            ((MemorySegment) a[2]).get(JAVA_LONG, 0), ((MemorySegment) a[3]).get(JAVA_LONG, 0));
                }
                calls.set(calls.size() - 1, new Call("objc_msgSend", sel, fd, cls,
                        List.of(((MemorySegment) a[2]).get(JAVA_LONG, 0), ((MemorySegment) a[3]).get(JAVA_LONG, 0))));
                yield null;
            }
            case "status" -> commandStatus;
            case "error" -> {
                if (commandStatus == MetalDevice.STATUS_COMPLETED) yield MemorySegment.NULL;
                MemorySegment err = make("NSError", true);
                objects.get(err.address()).value = "Execution of the command buffer was aborted due to an error during execution.";
                yield err;
            }
            case "matrixDescriptorWithRows:columns:rowBytes:dataType:" ->
                    withValue(make("MPSMatrixDescriptor", true), new long[] {(long) a[2], (long) a[3], (long) a[4], (int) a[5]});
            case "initWithBuffer:descriptor:" -> withValue((MemorySegment) a[0], new Matrix(obj(a[2]).memory, (long[]) obj(a[3]).value));
            case "initWithDevice:transposeLeft:transposeRight:resultRows:resultColumns:interiorColumns:alpha:beta:" -> a[0];
            case "encodeToCommandBuffer:leftMatrix:rightMatrix:resultMatrix:" -> {
                if (gpu != null) {
                    Matrix l = (Matrix) obj(a[3]).value, r = (Matrix) obj(a[4]).value, c = (Matrix) obj(a[5]).value;
                    gpu.multiply(l.memory, r.memory, c.memory, c.shape[0], c.shape[1], l.shape[1], (int) c.shape[3]);
                }
                yield null;
            }
            default -> throw new AssertionError("the fake does not know " + sel);
        };
    }
}
