package dev.jburn;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.*;

/** ServiceLoader discovery, availability reasons, selection errors and default choice. */
class EngineDiscoveryTest {
    @Test
    void availableListsEveryProviderWithReasonsByPriority() {
        List<EngineInfo> infos = Engine.available();
        assertEquals(List.of("fakegpu", "broken", "fakehost"), infos.stream().map(EngineInfo::name).toList());
        assertFalse(infos.get(0).available());
        assertEquals("no fake device attached", infos.get(0).reason());
        assertFalse(infos.get(1).available());
        assertTrue(infos.get(1).reason().contains("driver exploded"), infos.get(1).reason());
        assertTrue(infos.get(2).available());
    }

    @Test
    void selectingAnUnavailableEngineSaysWhyAndWhatIsAvailable() {
        JBurnException e = assertThrows(JBurnException.class, () -> Engine.select("fakegpu"));
        assertEquals("engine", e.op());
        assertTrue(e.getMessage().contains("no fake device attached"), e.getMessage());
        assertTrue(e.getMessage().contains("Available: [fakehost]"), e.getMessage());
    }

    @Test
    void selectingAnUnknownEngineListsTheOthers() {
        JBurnException e = assertThrows(JBurnException.class, () -> Engine.select("tpu"));
        assertTrue(e.getMessage().contains("no engine named 'tpu'"), e.getMessage());
        assertTrue(e.getMessage().contains("fakegpu (no fake device attached)"), e.getMessage());
    }

    @Test
    void anUnavailableEnginesReasonIsGivenOnce() {
        String m = assertThrows(JBurnException.class, () -> Engine.select("FakeGPU")).getMessage();
        assertEquals(m.indexOf("no fake device attached"), m.lastIndexOf("no fake device attached"), m);
    }

    @Test
    void aShippedEngineMissingFromTheClassPathNamesItsArtifact() {
        String cuda = assertThrows(JBurnException.class, () -> Engine.select("cuda")).getMessage();
        assertTrue(cuda.contains("add dev.jburn:accel-burn-cuda to the class path"), cuda);
        assertTrue(cuda.contains("case-insensitive"), cuda);
        assertTrue(cuda.contains("Available: [fakehost]"), cuda);
        String metal = assertThrows(JBurnException.class, () -> Engine.select("Metal")).getMessage();
        assertTrue(metal.contains("no engine named 'metal'") && metal.contains("is not built yet"), metal);
        String tpu = assertThrows(JBurnException.class, () -> Engine.select("tpu")).getMessage();
        assertTrue(tpu.contains("no provider of that name"), tpu);
    }

    @Test
    void anUnavailableEngineIsListedWithoutAPriority() {
        for (EngineInfo info : Engine.available()) {
            assertEquals(info.available(), info.toString().contains("priority"), info.toString());
            assertTrue(info.toString().contains(info.reason()), info.toString());
        }
    }

    @Test
    void selectIsCaseInsensitiveAndCachesOneEnginePerName() {
        Engine a = Engine.select("fakehost");
        assertSame(a, Engine.select("FakeHost"));
        assertEquals("fakehost", a.backend().name());
    }

    @Test
    void aDeviceSuffixPicksOneEnginePerDevice() {
        Engine plain = Engine.select("fakehost");
        assertEquals(1, plain.device(), "the plain name is the provider's default device");
        assertSame(plain, Engine.select("fakehost:1"));
        Engine two = Engine.select(" FakeHost:2 ");
        assertNotSame(plain, two);
        assertEquals("fakehost", two.name());
        assertEquals(2, two.device());
        assertEquals("fakehost:2", two.label());
        assertEquals("Engine[fakehost:2]", two.toString());
        assertSame(two, Engine.select("fakehost:2"));
        assertEquals("fakehost", Engine.select("fakehost:0").label(), "device 0 is labelled by the name alone");

        JBurnException over = assertThrows(JBurnException.class, () -> Engine.select("fakehost:3"));
        assertTrue(over.getMessage().contains("has 3 devices (fakehost:0 to fakehost:2); there is no 'fakehost:3'"), over.getMessage());
        for (String bad : List.of("fakehost:", "fakehost:x", "fakehost:-1", "fakehost:+1")) {
            JBurnException e = assertThrows(JBurnException.class, () -> Engine.select(bad), bad);
            assertTrue(e.getMessage().contains("must be a number >= 0"), e.getMessage());
        }
        JBurnException missing = assertThrows(JBurnException.class, () -> Engine.select("fakegpu:1"));
        assertTrue(missing.getMessage().contains("engine 'fakegpu' is unavailable"), missing.getMessage());
        JBurnException one = assertThrows(JBurnException.class,
                () -> new FakeProviders.Unavailable().create(dev.jburn.spi.EngineConfig.defaults(), 1));
        assertTrue(one.getMessage().contains("drives one device (0); device 1 was asked for"), one.getMessage());
    }

    @Test
    void theFallbackLineIsDebugOnceTheProgramSelectedAnEngineByName() {
        Engine.select("fakehost");
        assertEquals(System.Logger.Level.DEBUG, Engine.fallbackLineLevel(), "the program had chosen its engine: the fallback is not news");
    }

    @Test
    void defaultSkipsUnavailableProvidersAndHonoursTheRequest() {
        EngineSelection none = new EngineSelection(Optional.empty(), "default");
        assertEquals("fakehost", Engine.chooseDefaultForTest(none).name());
        EngineSelection bad = new EngineSelection(Optional.of("fakegpu"), "JBURN_ENGINE");
        assertThrows(JBurnException.class, () -> Engine.chooseDefaultForTest(bad));
    }
}
