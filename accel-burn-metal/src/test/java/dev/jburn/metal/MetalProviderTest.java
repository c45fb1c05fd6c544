package dev.jburn.metal;

import dev.jburn.JBurnException;
import dev.jburn.spi.EngineProvider;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The provider is found by ServiceLoader; off Apple systems it says in one line why it is unavailable
 * without touching anything native; on macOS it is available exactly when Metal gives a default GPU.
 */
class MetalProviderTest {
    private static EngineProvider metal() {
        return ServiceLoader.load(EngineProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("metal")).findFirst().orElseThrow(() -> new AssertionError("no metal provider found"));
    }

    private static boolean onMac() { return System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("mac"); }

    @Test
    void onLinuxItIsUnavailableInOneLineAndTouchesNothingNative() {
        var a = MetalAvailability.forOs("Linux", () -> { throw new AssertionError("a native lookup off macOS"); });
        assertFalse(a.available());
        assertEquals("metal needs macOS (Metal.framework); this is Linux", a.reason());
        if (!onMac()) {
            assertFalse(metal().isAvailable());
            assertFalse(metal().availability().reason().contains("\n"));
        }
    }

    @Test
    void onAMacItIsAvailableWhenMetalGivesADeviceAndReleasesTheProbe() {
        FakeObjc fake = new FakeObjc();
        var a = MetalAvailability.forOs("Mac OS X", () -> fake);
        assertTrue(a.available(), a.reason());
        assertTrue(a.reason().contains("Fake Apple GPU"), a.reason());
        assertEquals(List.of(), fake.leaks(), "the probe's device and queue are released");
    }

    @Test
    void onAMacWithoutAGpuItSaysSoInOneLine() {
        FakeObjc fake = new FakeObjc();
        fake.noDevice = true;
        var a = MetalAvailability.forOs("Mac OS X", () -> fake);
        assertFalse(a.available());
        assertTrue(a.reason().contains("found no Metal GPU") && !a.reason().contains("\n"), a.reason());
        var broken = MetalAvailability.forOs("Mac OS X", () -> { throw new IllegalArgumentException("no such library: Metal"); });
        assertFalse(broken.available(), "a missing framework is an answer, never an exception");
        assertTrue(broken.reason().contains("no such library"), broken.reason());
    }

    @Test
    void createFailsWithAJBurnExceptionSayingWhyWhereUnavailable() {
        EngineProvider p = metal();
        if (p.isAvailable()) return; // a Mac with a GPU: MetalOnMacTest covers it
        JBurnException e = assertThrows(JBurnException.class, () -> p.create(null));
        assertTrue(e.getMessage().contains(p.availability().reason()), e.getMessage());
    }
}
