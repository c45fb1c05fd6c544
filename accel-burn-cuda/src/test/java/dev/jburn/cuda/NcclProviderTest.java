package dev.jburn.cuda;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.dist.Communicators;
import dev.jburn.dist.Store;
import dev.jburn.spi.Availability;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** What runs without a GPU: discovery, the probe's reason, refusing another engine's tensors, the id layout. */
class NcclProviderTest {
    @Test
    void foundThroughServiceLoaderAndTheProbeNeverThrows() {
        var p = Communicators.provider("cuda");
        assertTrue(p.isPresent(), "NcclProvider is registered for the cuda engine");
        assertInstanceOf(NcclProvider.class, p.get());
        Availability a = p.get().availability();
        assertNotNull(a.reason());
        if (!a.available()) {
            assertTrue(a.reason().contains("libnccl") || a.reason().contains("JBURN_NCCL_LIBRARY"), a.reason());
        } else {
            assertTrue(a.reason().startsWith("nccl 2."), a.reason());
        }
        assertTrue(Communicators.provider("cpu").isEmpty());
    }

    @Test
    void anotherEnginesTensorsAreRefusedBeforeNcclIsTouched() {
        try (Store s = Store.inMemory()) {
            JBurnException e = assertThrows(JBurnException.class, () -> NcclCommunicator.join(Engine.select("cpu"), 0, 1, s));
            assertTrue(e.getMessage().contains("not the cuda engine"), e.getMessage());
        }
    }

    @Test
    void theUniqueIdIs128BytesPassedByValueAndTypesMapToNccls() {
        assertEquals(128, Nccl.UNIQUE_ID.byteSize());
        assertEquals(7, Nccl.type(dev.jburn.DType.F32));
        assertEquals(9, Nccl.type(dev.jburn.DType.BF16));
        assertEquals(-1, Nccl.type(dev.jburn.DType.PRED));
        if (System.getenv("JBURN_NCCL_LIBRARY") == null && System.getProperty("jburn.nccl.library") == null) {
            assertEquals(java.util.List.of("libnccl.so.2", "libnccl.so"), Nccl.candidates(), "the loader path, when no override is set");
        }
    }
}
