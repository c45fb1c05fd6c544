package dev.jburn.cuda;

import dev.jburn.JBurnException;

import java.util.Map;
import java.util.function.IntFunction;

/**
 * CUresult codes as names, and the check every driver call goes through: a failing call becomes a
 * {@link JBurnException} naming the JBurn op, the CUDA call and the error name.
 */
final class CudaResult {
    static final int SUCCESS = 0;
    static final int OUT_OF_MEMORY = 2;
    static final int NOT_INITIALIZED = 3;
    static final int NO_DEVICE = 100;

    /** Names of the codes met most, for when the driver's own cuGetErrorName is not at hand. */
    private static final Map<Integer, String> KNOWN = Map.ofEntries(
            Map.entry(0, "CUDA_SUCCESS"),
            Map.entry(1, "CUDA_ERROR_INVALID_VALUE"),
            Map.entry(2, "CUDA_ERROR_OUT_OF_MEMORY"),
            Map.entry(3, "CUDA_ERROR_NOT_INITIALIZED"),
            Map.entry(4, "CUDA_ERROR_DEINITIALIZED"),
            Map.entry(35, "CUDA_ERROR_INSUFFICIENT_DRIVER"),
            Map.entry(100, "CUDA_ERROR_NO_DEVICE"),
            Map.entry(101, "CUDA_ERROR_INVALID_DEVICE"),
            Map.entry(200, "CUDA_ERROR_INVALID_IMAGE"),
            Map.entry(201, "CUDA_ERROR_INVALID_CONTEXT"),
            Map.entry(209, "CUDA_ERROR_NO_BINARY_FOR_GPU"),
            Map.entry(218, "CUDA_ERROR_INVALID_PTX"),
            Map.entry(222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"),
            Map.entry(400, "CUDA_ERROR_INVALID_HANDLE"),
            Map.entry(500, "CUDA_ERROR_NOT_FOUND"),
            Map.entry(600, "CUDA_ERROR_NOT_READY"),
            Map.entry(700, "CUDA_ERROR_ILLEGAL_ADDRESS"),
            Map.entry(701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"),
            Map.entry(702, "CUDA_ERROR_LAUNCH_TIMEOUT"),
            Map.entry(719, "CUDA_ERROR_LAUNCH_FAILED"),
            Map.entry(999, "CUDA_ERROR_UNKNOWN"));

    private CudaResult() {}

    /** A code's name from the table above, or {@code CUresult <code>}. */
    static String knownName(int code) {
        String n = KNOWN.get(code);
        return n != null ? n : "CUresult " + code;
    }

    /**
     * Throws a {@link JBurnException}{@code (op, "<call> failed: <name> (<code>)")} unless
     * {@code result} is success; {@code names} maps a code to its name (the driver's cuGetErrorName).
     */
    static void check(int result, String call, String op, IntFunction<String> names) {
        if (result != SUCCESS) throw new JBurnException(op, call + " failed: " + names.apply(result) + " (" + result + ")");
    }
}
