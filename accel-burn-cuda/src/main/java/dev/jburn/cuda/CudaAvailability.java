package dev.jburn.cuda;

import dev.jburn.spi.Availability;

/**
 * Whether the cuda engine can run here, probed once per process and cached: libraries loaded,
 * driver new enough, a device present. Never throws; the reason names what is missing
 * ("libcuda.so.1 / libcuda.so not found on the library path ...").
 */
public final class CudaAvailability {
    private record Probe(Availability availability, CudaLibraries libraries) {}

    private static volatile Probe probe;

    private CudaAvailability() {}

    /** The cached probe result for the configured device. */
    public static Availability get() { return probe().availability(); }

    /** The loaded libraries; {@link CudaUnavailableException} with the reason when unavailable. */
    static CudaLibraries libraries() {
        Probe p = probe();
        if (p.libraries() == null) throw new CudaUnavailableException(p.availability().reason());
        return p.libraries();
    }

    private static Probe probe() {
        Probe p = probe;
        if (p == null) {
            synchronized (CudaAvailability.class) {
                if (probe == null) probe = run(CudaConfig.fromSystemProperties().device());
                p = probe;
            }
        }
        return p;
    }

    private static Probe run(int device) {
        try {
            CudaLibraries libs = CudaLibraries.load(device);
            CudaDriver d = libs.driver();
            int dev = d.device(device);
            String desc = d.deviceName(dev) + " (sm_" + d.attribute(CudaDriver.ATTR_COMPUTE_CAPABILITY_MAJOR, dev)
                    + d.attribute(CudaDriver.ATTR_COMPUTE_CAPABILITY_MINOR, dev) + ", "
                    + (d.totalMemory(dev) >> 20) + " MiB), driver CUDA " + CudaLibraries.versionText(libs.driverVersion())
                    + ", NVRTC " + libs.nvrtc().version() + " (" + libs.nvrtc().libraryName() + "), "
                    + libs.cublas().libraryName();
            return new Probe(Availability.yes(desc), libs);
        } catch (CudaUnavailableException e) {
            return new Probe(Availability.no(e.getMessage()), null);
        } catch (RuntimeException | LinkageError e) {
            return new Probe(Availability.no("CUDA probe failed: " + e), null);
        }
    }
}
