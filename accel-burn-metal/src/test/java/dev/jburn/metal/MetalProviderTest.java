package dev.jburn.metal;

import dev.jburn.JBurnException;
import dev.jburn.spi.EngineProvider;
import org.junit.jupiter.api.Test;

import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider is found by ServiceLoader, says in one line why it is unavailable, and refuses to create an engine. */
class MetalProviderTest {
    private static EngineProvider metal() {
        return ServiceLoader.load(EngineProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("metal")).findFirst().orElseThrow(() -> new AssertionError("no metal provider found"));
    }

    @Test
    void onLinuxItIsUnavailableInOneLine() {
        var a = MetalAvailability.forOs("Linux");
        assertFalse(a.available());
        assertEquals("metal needs macOS (Metal.framework); this is Linux", a.reason());
        if (!System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).startsWith("mac")) {
            assertFalse(metal().isAvailable());
            assertFalse(metal().availability().reason().contains("\n"));
        }
    }

    @Test
    void onAMacItSaysTheBackendIsNotBuilt() {
        var a = MetalAvailability.forOs("Mac OS X");
        assertFalse(a.available());
        assertTrue(a.reason().contains("not built"), a.reason());
    }

    @Test
    void createFailsWithAJBurnExceptionSayingWhy() {
        EngineProvider p = metal();
        JBurnException e = assertThrows(JBurnException.class, () -> p.create(null));
        assertTrue(e.getMessage().contains(p.availability().reason()), e.getMessage());
    }
}
