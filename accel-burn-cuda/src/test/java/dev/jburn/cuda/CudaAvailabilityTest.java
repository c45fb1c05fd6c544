package dev.jburn.cuda;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.spi.Availability;
import org.junit.jupiter.api.Test;

import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The probe never throws and says why: runs with or without a GPU. */
class CudaAvailabilityTest {
    @Test
    void reasonNamesTheMissingLibraryOrDescribesTheDevice() {
        Availability a = new CudaProvider().availability();
        assertNotNull(a.reason());
        if (a.available()) {
            assertTrue(a.reason().contains("sm_") && a.reason().contains("NVRTC"), a.reason());
        } else {
            assertTrue(a.reason().matches("(?s).*(libcuda|libnvrtc|libcublas|cuInit|driver|device).*"), a.reason());
        }
        assertSame(a, CudaAvailability.get(), "the probe is cached");
    }

    @Test
    void withoutLibcudaTheReasonNamesIt() {
        // On a machine without the NVIDIA driver the first missing piece is the driver library.
        boolean hasDriver;
        try {
            CudaDriver.load();
            hasDriver = true;
        } catch (CudaUnavailableException e) {
            hasDriver = false;
            assertTrue(e.getMessage().contains("libcuda.so.1"), e.getMessage());
        }
        if (!hasDriver) {
            Availability a = CudaAvailability.get();
            assertTrue(!a.available() && a.reason().contains("libcuda.so.1"), a.reason());
        }
    }

    @Test
    void providerIsFoundThroughServiceLoaderAndSelectExplainsAbsence() {
        boolean found = ServiceLoader.load(dev.jburn.spi.EngineProvider.class).stream()
                .anyMatch(p -> p.type() == CudaProvider.class);
        assertTrue(found, "cuda provider not registered in META-INF/services");
        assertEquals("cuda", new CudaProvider().name());
        if (!CudaAvailability.get().available()) {
            JBurnException e = assertThrows(JBurnException.class, () -> Engine.select("cuda"));
            assertTrue(e.getMessage().contains(CudaAvailability.get().reason()), e.getMessage());
        }
    }

    @Test
    void missingLibraryReasonListsEveryNameTried() {
        CudaUnavailableException e = assertThrows(CudaUnavailableException.class,
                () -> NativeLibrary.open(java.util.List.of("libjburn-no-such-a.so.1", "libjburn-no-such-b.so")));
        assertTrue(e.getMessage().contains("libjburn-no-such-a.so.1") && e.getMessage().contains("libjburn-no-such-b.so"), e.getMessage());
        assertEquals("libjburn-no-such-a.so.1 / libjburn-no-such-b.so not found on the library path", e.getMessage(),
                "a missing library is said once, without the JDK's 'Cannot open library' for each name");
    }

    @Test
    void resultCodesHaveNames() {
        assertEquals("CUDA_ERROR_OUT_OF_MEMORY", CudaResult.knownName(2));
        assertEquals("CUresult 12345", CudaResult.knownName(12345));
        JBurnException e = assertThrows(JBurnException.class,
                () -> CudaResult.check(2, "cuMemAlloc_v2", "add", CudaResult::knownName));
        assertEquals("add", e.op());
        assertTrue(e.reason().contains("cuMemAlloc_v2") && e.reason().contains("CUDA_ERROR_OUT_OF_MEMORY"), e.reason());
    }

    @Test
    void driverVersionText() {
        assertEquals("13.0", CudaLibraries.versionText(13000));
        assertEquals("12.4", CudaLibraries.versionText(12040));
    }
}
