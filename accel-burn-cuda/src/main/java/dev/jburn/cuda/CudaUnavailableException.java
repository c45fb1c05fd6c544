package dev.jburn.cuda;

/**
 * Why the CUDA engine cannot run here: a library missing, a symbol missing, a driver too old,
 * no device. Caught by {@link CudaAvailability}, which turns it into an availability reason.
 */
final class CudaUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CudaUnavailableException(String reason) { super(reason); }
}
