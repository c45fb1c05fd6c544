package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.JBurnException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * NCCL ({@code libnccl.so.2}) through FFM: the calls data-parallel training needs, bound once. The library is
 * {@code -Djburn.nccl.library} or {@code $JBURN_NCCL_LIBRARY} (a path or a name) when set, else
 * {@code libnccl.so.2} / {@code libnccl.so} from the loader path. Before NCCL first runs, this process's
 * environment gets {@code NCCL_NVLS_ENABLE=0} (and the other multicast switches of {@code Launcher.NO_MULTICAST})
 * through libc's {@code setenv}: NCCL reads it when a communicator is created, and NVLink multicast must stay
 * off on shared hosts. Device pointers are {@code long}s; communicators and streams are opaque pointers.
 */
@SuppressWarnings("restricted") // C strings from NCCL are sized here
final class Nccl {
    /** {@code ncclUniqueId}: {@code struct { char internal[128]; }}, passed by value to {@code ncclCommInitRank}. */
    static final StructLayout UNIQUE_ID = MemoryLayout.structLayout(MemoryLayout.sequenceLayout(128, JAVA_BYTE).withName("internal"));
    static final int SUM = 0, AVG = 4;

    private static volatile Nccl loaded;
    private static volatile String failure;

    private final NativeLibrary lib;
    private final MethodHandle getVersion, getUniqueId, commInitRank, allReduce, broadcast, groupStart, groupEnd,
            commDestroy, commAbort, getErrorString;
    final int version;

    private Nccl(NativeLibrary lib) {
        this.lib = lib;
        getVersion = lib.fn("ncclGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getUniqueId = lib.fn("ncclGetUniqueId", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        commInitRank = lib.fn("ncclCommInitRank", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, UNIQUE_ID, JAVA_INT));
        allReduce = lib.fn("ncclAllReduce", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
        broadcast = lib.fn("ncclBroadcast", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
        groupStart = lib.fn("ncclGroupStart", FunctionDescriptor.of(JAVA_INT));
        groupEnd = lib.fn("ncclGroupEnd", FunctionDescriptor.of(JAVA_INT));
        commDestroy = lib.fn("ncclCommDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        commAbort = lib.fn("ncclCommAbort", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getErrorString = lib.fn("ncclGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check((int) getVersion.invokeExact(v), "ncclGetVersion", "nccl");
            version = v.get(JAVA_INT, 0);
        } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    /** The library names tried, in order. */
    static List<String> candidates() {
        List<String> names = new ArrayList<>();
        String prop = System.getProperty("jburn.nccl.library"), env = System.getenv("JBURN_NCCL_LIBRARY");
        if (prop != null && !prop.isBlank()) names.add(prop);
        else if (env != null && !env.isBlank()) names.add(env);
        else names.addAll(List.of("libnccl.so.2", "libnccl.so"));
        return names;
    }

    /** The loaded library; {@link CudaUnavailableException} with the reason when it cannot load. Probed once. */
    static Nccl get() {
        Nccl n = loaded;
        if (n != null) return n;
        synchronized (Nccl.class) {
            if (loaded != null) return loaded;
            if (failure != null) throw new CudaUnavailableException(failure);
            try {
                noMulticast();
                loaded = new Nccl(NativeLibrary.open(candidates()));
                return loaded;
            } catch (CudaUnavailableException e) {
                failure = e.getMessage();
                throw e;
            } catch (RuntimeException | LinkageError e) {
                failure = "loading NCCL failed: " + e;
                throw new CudaUnavailableException(failure);
            }
        }
    }

    /** Sets the multicast switches in this process's C environment, overriding what it had (NCCL reads them there). */
    private static void noMulticast() {
        Linker linker = Linker.nativeLinker();
        var setenv = linker.defaultLookup().find("setenv");
        if (setenv.isEmpty()) throw new CudaUnavailableException("libc has no setenv: cannot turn NVLink multicast off for NCCL");
        MethodHandle h = linker.downcallHandle(setenv.get(), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        for (Map.Entry<String, String> e : dev.jburn.dist.Launcher.NO_MULTICAST.entrySet()) {
            try (Arena a = Arena.ofConfined()) {
                int r = (int) h.invokeExact(a.allocateFrom(e.getKey()), a.allocateFrom(e.getValue()), 1);
                if (r != 0) throw new CudaUnavailableException("setenv(" + e.getKey() + ") failed: cannot turn NVLink multicast off for NCCL");
            } catch (Throwable t) { throw CudaDriver.rethrow(t); }
        }
    }

    String libraryName() { return lib.name(); }

    /** {@code 22803} as {@code "2.28.3"}. */
    String versionText() { return version / 10000 + "." + (version / 100) % 100 + "." + version % 100; }

    String errorString(int code) {
        try {
            MemorySegment s = (MemorySegment) getErrorString.invokeExact(code);
            return s.equals(MemorySegment.NULL) ? "nccl error " + code : s.reinterpret(512).getString(0, StandardCharsets.US_ASCII);
        } catch (Throwable t) {
            return "nccl error " + code;
        }
    }

    void check(int result, String call, String op) {
        if (result != 0) throw new JBurnException(op, call + " failed: " + errorString(result) + " (ncclResult " + result + ")");
    }

    /** A new id (rank 0 makes it, every rank joins with it): 128 bytes. */
    byte[] uniqueId() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment id = a.allocate(UNIQUE_ID);
            check((int) getUniqueId.invokeExact(id), "ncclGetUniqueId", "communicator");
            return id.toArray(JAVA_BYTE);
        } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    /** {@code ncclCommInitRank}: blocks until all {@code size} ranks have joined with {@code id}. */
    MemorySegment initRank(int size, byte[] id, int rank) {
        if (id.length != UNIQUE_ID.byteSize()) throw new JBurnException("communicator", "an NCCL id has 128 bytes, got " + id.length);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment comm = a.allocate(ADDRESS);
            MemorySegment idValue = a.allocate(UNIQUE_ID);
            idValue.copyFrom(MemorySegment.ofArray(id));
            check((int) commInitRank.invokeExact(comm, size, idValue, rank), "ncclCommInitRank(rank " + rank + " of " + size + ")", "communicator");
            return comm.get(ADDRESS, 0);
        } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    void allReduce(long send, long recv, long count, int type, int op, MemorySegment comm, MemorySegment stream, String what) {
        try { check((int) allReduce.invokeExact(send, recv, count, type, op, comm, stream), "ncclAllReduce", what); }
        catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    void broadcast(long send, long recv, long count, int type, int root, MemorySegment comm, MemorySegment stream, String what) {
        try { check((int) broadcast.invokeExact(send, recv, count, type, root, comm, stream), "ncclBroadcast", what); }
        catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    void groupStart(String what) {
        try { check((int) groupStart.invokeExact(), "ncclGroupStart", what); } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    void groupEnd(String what) {
        try { check((int) groupEnd.invokeExact(), "ncclGroupEnd", what); } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    void destroy(MemorySegment comm) {
        try { check((int) commDestroy.invokeExact(comm), "ncclCommDestroy", "close"); } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    void abort(MemorySegment comm) {
        try { check((int) commAbort.invokeExact(comm), "ncclCommAbort", "abort"); } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    /** NCCL's {@code ncclDataType_t} for {@code t}, or -1 when NCCL has none (pred, u16, s16). */
    static int type(DType t) {
        return switch (t) {
            case S8 -> 0;
            case U8 -> 1;
            case S32 -> 2;
            case U32 -> 3;
            case S64 -> 4;
            case U64 -> 5;
            case F16 -> 6;
            case F32 -> 7;
            case F64 -> 8;
            case BF16 -> 9;
            default -> -1;
        };
    }
}
