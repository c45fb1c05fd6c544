package dev.jburn.cuda;

import dev.jburn.JBurnException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * cuBLAS ({@code libcublas.so.13}) through FFM: the GEMM calls the engine's {@code dot} uses. Device
 * pointers are passed as 64-bit integers (same registers as pointers in the x86-64 and AArch64 C
 * ABIs); alpha and beta are host scalars (cuBLAS's default pointer mode). One handle, bound to the
 * engine's stream; callers hold the engine's lock, since a handle must not be used by two threads at once.
 */
final class Cublas {
    static final List<String> LIBRARY_NAMES = List.of("libcublas.so.13", "libcublas.so", "libcublas.so.12");
    static final List<String> LT_LIBRARY_NAMES = List.of("libcublasLt.so.13", "libcublasLt.so", "libcublasLt.so.12");

    static final int OP_N = 0, OP_T = 1;
    static final int DEFAULT_MATH = 0, TF32_TENSOR_OP_MATH = 3;
    /** cudaDataType values. */
    static final int R_32F = 0, R_64F = 1, R_16F = 2, R_16BF = 14;
    static final int COMPUTE_32F = 68;
    static final int GEMM_DEFAULT = -1;

    private static final FunctionDescriptor SGEMM = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
            JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT);
    private static final FunctionDescriptor SGEMM_BATCHED = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
            JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG,
            ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final FunctionDescriptor GEMM_EX_BATCHED = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
            JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS,
            JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG,
            JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG,
            ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT);

    private final NativeLibrary lib;
    private static final FunctionDescriptor GEMM_EX = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
            JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS,
            JAVA_LONG, JAVA_INT, JAVA_INT,
            JAVA_LONG, JAVA_INT, JAVA_INT,
            ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT);

    /** The workspace the engine gives each handle (NVIDIA's recommendation for Hopper). */
    static final long WORKSPACE_BYTES = 32L << 20;

    private final java.util.Optional<MethodHandle> setWorkspace;
    private final MethodHandle create, destroy, setStream, setMathMode, sgemm, sgemmBatched, dgemm, dgemmBatched, gemmEx, gemmExBatched;

    private Cublas(NativeLibrary lib) {
        this.lib = lib;
        create = lib.fn("cublasCreate_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        destroy = lib.fn("cublasDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        setStream = lib.fn("cublasSetStream_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        setMathMode = lib.fn("cublasSetMathMode", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        sgemm = lib.fn("cublasSgemm_v2", SGEMM);
        sgemmBatched = lib.fn("cublasSgemmStridedBatched", SGEMM_BATCHED);
        dgemm = lib.fn("cublasDgemm_v2", SGEMM);
        dgemmBatched = lib.fn("cublasDgemmStridedBatched", SGEMM_BATCHED);
        gemmEx = lib.fn("cublasGemmEx", GEMM_EX);
        gemmExBatched = lib.fn("cublasGemmStridedBatchedEx", GEMM_EX_BATCHED);
        setWorkspace = lib.optional("cublasSetWorkspace_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    }

    /**
     * Gives the handle a workspace of the engine's own, so that cuBLAS never allocates one inside a
     * captured CUDA graph; false where this cuBLAS lacks {@code cublasSetWorkspace_v2}.
     */
    boolean setWorkspace(MemorySegment handle, long pointer, long bytes) {
        if (setWorkspace.isEmpty()) return false;
        try {
            check((int) setWorkspace.get().invokeExact(handle, pointer, bytes), "cublasSetWorkspace_v2", "cuda");
            return true;
        } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    /** Opens cuBLAS (which loads cuBLASLt itself); {@link CudaUnavailableException} when either is missing. */
    static Cublas load() {
        NativeLibrary.open(LT_LIBRARY_NAMES);
        return new Cublas(NativeLibrary.open(LIBRARY_NAMES));
    }

    String libraryName() { return lib.name(); }

    private static void check(int status, String call, String op) {
        if (status != 0) throw new JBurnException(op, call + " failed: cublasStatus_t " + status + statusName(status));
    }

    private static String statusName(int s) {
        return switch (s) {
            case 1 -> " (CUBLAS_STATUS_NOT_INITIALIZED)";
            case 3 -> " (CUBLAS_STATUS_ALLOC_FAILED)";
            case 7 -> " (CUBLAS_STATUS_INVALID_VALUE)";
            case 8 -> " (CUBLAS_STATUS_ARCH_MISMATCH)";
            case 11 -> " (CUBLAS_STATUS_MAPPING_ERROR)";
            case 13 -> " (CUBLAS_STATUS_EXECUTION_FAILED)";
            case 14 -> " (CUBLAS_STATUS_INTERNAL_ERROR)";
            case 15 -> " (CUBLAS_STATUS_NOT_SUPPORTED)";
            default -> "";
        };
    }

    /** A handle bound to {@code stream}, TF32 tensor-op math for F32 when {@code tf32}. */
    MemorySegment createHandle(MemorySegment stream, boolean tf32) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cell = a.allocate(ADDRESS);
            check((int) create.invokeExact(cell), "cublasCreate_v2", "cuda");
            MemorySegment h = cell.get(ADDRESS, 0);
            check((int) setStream.invokeExact(h, stream), "cublasSetStream_v2", "cuda");
            check((int) setMathMode.invokeExact(h, tf32 ? TF32_TENSOR_OP_MATH : DEFAULT_MATH), "cublasSetMathMode", "cuda");
            return h;
        } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    void destroyHandle(MemorySegment handle) {
        try { check((int) destroy.invokeExact(handle), "cublasDestroy_v2", "close"); }
        catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }

    /**
     * Runs one (batched) GEMM laid out by {@code g} on pointers {@code first}, {@code second},
     * {@code c} (see {@link GemmArgs}): F32 and F64 with their own GEMMs, F16/BF16 with
     * {@code cublasGemmEx} / {@code cublasGemmStridedBatchedEx} accumulating in F32.
     */
    void gemm(MemorySegment handle, GemmArgs g, GemmArgs.Precision p, long first, long second, long c) {
        try (Arena a = Arena.ofConfined()) {
            int status;
            switch (p) {
                case F32 -> {
                    MemorySegment alpha = a.allocateFrom(JAVA_FLOAT, 1f), beta = a.allocateFrom(JAVA_FLOAT, 0f);
                    status = g.batch() == 1
                            ? (int) sgemm.invokeExact(handle, g.transFirst(), g.transSecond(), g.m(), g.n(), g.k(), alpha,
                                    first, g.ldFirst(), second, g.ldSecond(), beta, c, g.ldc())
                            : (int) sgemmBatched.invokeExact(handle, g.transFirst(), g.transSecond(), g.m(), g.n(), g.k(), alpha,
                                    first, g.ldFirst(), g.strideFirst(), second, g.ldSecond(), g.strideSecond(), beta,
                                    c, g.ldc(), g.strideC(), g.batch());
                }
                case F64 -> {
                    MemorySegment alpha = a.allocateFrom(JAVA_DOUBLE, 1d), beta = a.allocateFrom(JAVA_DOUBLE, 0d);
                    status = g.batch() == 1
                            ? (int) dgemm.invokeExact(handle, g.transFirst(), g.transSecond(), g.m(), g.n(), g.k(), alpha,
                                    first, g.ldFirst(), second, g.ldSecond(), beta, c, g.ldc())
                            : (int) dgemmBatched.invokeExact(handle, g.transFirst(), g.transSecond(), g.m(), g.n(), g.k(), alpha,
                                    first, g.ldFirst(), g.strideFirst(), second, g.ldSecond(), g.strideSecond(), beta,
                                    c, g.ldc(), g.strideC(), g.batch());
                }
                case F16, BF16 -> {
                    int type = p == GemmArgs.Precision.F16 ? R_16F : R_16BF;
                    MemorySegment alpha = a.allocateFrom(JAVA_FLOAT, 1f), beta = a.allocateFrom(JAVA_FLOAT, 0f);
                    status = g.batch() == 1
                            ? (int) gemmEx.invokeExact(handle, g.transFirst(), g.transSecond(), g.m(), g.n(), g.k(), alpha,
                                    first, type, g.ldFirst(), second, type, g.ldSecond(), beta,
                                    c, type, g.ldc(), COMPUTE_32F, GEMM_DEFAULT)
                            : (int) gemmExBatched.invokeExact(handle, g.transFirst(), g.transSecond(), g.m(), g.n(), g.k(), alpha,
                                    first, type, g.ldFirst(), g.strideFirst(), second, type, g.ldSecond(), g.strideSecond(), beta,
                                    c, type, g.ldc(), g.strideC(), g.batch(), COMPUTE_32F, GEMM_DEFAULT);
                }
                default -> throw new IllegalStateException("no GEMM for " + p);
            }
            check(status, "cuBLAS GEMM " + p + " " + g, "dot");
        } catch (Throwable t) { throw CudaDriver.rethrow(t); }
    }
}
