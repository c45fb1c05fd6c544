package dev.jburn.cuda;

/**
 * The three libraries the engine needs, loaded and checked: the driver (new enough, with a device),
 * NVRTC and cuBLAS.
 *
 * @param driver        the driver API
 * @param nvrtc         the run-time compiler
 * @param cublas        the BLAS
 * @param driverVersion {@code cuDriverGetVersion}, e.g. 13000
 */
record CudaLibraries(CudaDriver driver, Nvrtc nvrtc, Cublas cublas, int driverVersion) {

    /** Loads and checks everything; {@link CudaUnavailableException} saying what is missing. */
    static CudaLibraries load(int deviceOrdinal) {
        CudaDriver driver = CudaDriver.load();
        int init = driver.init();
        if (init != CudaResult.SUCCESS) {
            throw new CudaUnavailableException("cuInit failed: " + driver.errorName(init) + " (" + init + ")"
                    + (init == CudaResult.NO_DEVICE ? ": no NVIDIA GPU visible" : ""));
        }
        int version = driver.driverVersion();
        if (version < CudaDriver.MIN_DRIVER_VERSION) {
            throw new CudaUnavailableException("the NVIDIA driver supports CUDA " + versionText(version)
                    + ", the cuda engine needs " + versionText(CudaDriver.MIN_DRIVER_VERSION) + " or newer");
        }
        int count = driver.deviceCount();
        if (count <= deviceOrdinal) {
            throw new CudaUnavailableException("CUDA device " + deviceOrdinal + " requested, " + count + " present");
        }
        return new CudaLibraries(driver, Nvrtc.load(), Cublas.load(), version);
    }

    /** 13000 as {@code "13.0"}. */
    static String versionText(int v) { return (v / 1000) + "." + (v % 1000) / 10; }
}
