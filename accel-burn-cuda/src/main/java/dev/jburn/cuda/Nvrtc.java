package dev.jburn.cuda;

import dev.jburn.JBurnException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * NVRTC, the run-time CUDA C++ compiler, through FFM: CUDA C source in, CUBIN for one GPU
 * architecture out. Compiling straight to CUBIN (not PTX) matters: PTX from an NVRTC newer than
 * the driver is rejected, and a CUBIN loads without the driver's JIT.
 */
@SuppressWarnings("restricted") // NVRTC's error strings are C strings of unknown length
final class Nvrtc {
    /** Sonames tried in order: CUDA 13, then the unversioned development link, then CUDA 12. */
    static final List<String> LIBRARY_NAMES = List.of("libnvrtc.so.13", "libnvrtc.so", "libnvrtc.so.12");

    private final NativeLibrary lib;
    private final MethodHandle version, getErrorString, createProgram, compileProgram, getLogSize, getLog,
            getCubinSize, getCubin, destroyProgram;

    private Nvrtc(NativeLibrary lib) {
        this.lib = lib;
        version = lib.fn("nvrtcVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        getErrorString = lib.fn("nvrtcGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        createProgram = lib.fn("nvrtcCreateProgram",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        compileProgram = lib.fn("nvrtcCompileProgram", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        getLogSize = lib.fn("nvrtcGetProgramLogSize", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        getLog = lib.fn("nvrtcGetProgramLog", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        getCubinSize = lib.fn("nvrtcGetCUBINSize", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        getCubin = lib.fn("nvrtcGetCUBIN", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        destroyProgram = lib.fn("nvrtcDestroyProgram", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    /** Opens NVRTC; {@link CudaUnavailableException} when no copy is on the loader path. */
    static Nvrtc load() { return load(LIBRARY_NAMES); }

    /** NVRTC from the first of {@code names} that opens; it needs no GPU (compile checks where there is none). */
    static Nvrtc load(List<String> names) { return new Nvrtc(NativeLibrary.open(names)); }

    String libraryName() { return lib.name(); }

    /** {@code "major.minor"} of this NVRTC (part of every compile-cache key). */
    String version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment major = a.allocate(JAVA_INT), minor = a.allocate(JAVA_INT);
            check((int) version.invokeExact(major, minor), "nvrtcVersion", "cuda");
            return major.get(JAVA_INT, 0) + "." + minor.get(JAVA_INT, 0);
        } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    private String errorString(int code) {
        try {
            MemorySegment s = (MemorySegment) getErrorString.invokeExact(code);
            return s.equals(MemorySegment.NULL) ? "nvrtcResult " + code : s.reinterpret(256).getString(0, StandardCharsets.US_ASCII);
        } catch (Throwable t) { return "nvrtcResult " + code; }
    }

    private void check(int result, String call, String op) {
        if (result != 0) throw new JBurnException(op, call + " failed: " + errorString(result) + " (" + result + ")");
    }

    /**
     * Compiles {@code source} with {@code options} to a CUBIN. A compile error becomes a
     * {@link JBurnException} for {@code op} holding NVRTC's log and the source's first lines.
     */
    byte[] compileToCubin(String source, String programName, List<String> options, String op) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment progCell = a.allocate(ADDRESS);
            check((int) createProgram.invokeExact(progCell, a.allocateFrom(source), a.allocateFrom(programName),
                    0, MemorySegment.NULL, MemorySegment.NULL), "nvrtcCreateProgram", op);
            MemorySegment prog = progCell.get(ADDRESS, 0);
            try {
                MemorySegment opts = a.allocate(ADDRESS, Math.max(1, options.size()));
                for (int i = 0; i < options.size(); i++) opts.setAtIndex(ADDRESS, i, a.allocateFrom(options.get(i)));
                int r = (int) compileProgram.invokeExact(prog, options.size(), opts);
                if (r != 0) {
                    throw new JBurnException(op, "NVRTC could not compile kernel " + programName + " (" + errorString(r)
                            + ", options " + options + "):\n" + log(a, prog) + "\n--- source ---\n" + source);
                }
                MemorySegment size = a.allocate(JAVA_LONG);
                check((int) getCubinSize.invokeExact(prog, size), "nvrtcGetCUBINSize", op);
                long n = size.get(JAVA_LONG, 0);
                MemorySegment cubin = a.allocate(Math.max(1, n));
                check((int) getCubin.invokeExact(prog, cubin), "nvrtcGetCUBIN", op);
                return cubin.asSlice(0, n).toArray(JAVA_BYTE);
            } finally {
                int ignored = (int) destroyProgram.invokeExact(progCell);
            }
        } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    private String log(Arena a, MemorySegment prog) throws Throwable {
        MemorySegment size = a.allocate(JAVA_LONG);
        if ((int) getLogSize.invokeExact(prog, size) != 0) return "(no log)";
        long n = size.get(JAVA_LONG, 0);
        MemorySegment log = a.allocate(Math.max(1, n));
        if ((int) getLog.invokeExact(prog, log) != 0) return "(no log)";
        return log.getString(0, StandardCharsets.UTF_8).strip();
    }
}
