package dev.jburn.metal;

import dev.jburn.JBurnException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SystemNatives}' library opening on Linux, through a recording opener whose symbols are
 * addresses no handle ever calls: CoreGraphics opened before any framework, each library once, and
 * a missing symbol named with its library. What it cannot show: that these install paths open on a Mac.
 */
class SystemNativesTest {
    /** Opens nothing real: records each path and answers every symbol except {@code missing} with a dummy address. */
    private static final class Recorder {
        final List<String> opened = new ArrayList<>();

        SymbolLookup open(String path) {
            opened.add(path);
            return name -> name.equals("missing") ? Optional.empty() : Optional.of(MemorySegment.ofAddress(0x1000));
        }
    }

    private static final FunctionDescriptor NO_ARGS = FunctionDescriptor.of(ADDRESS);

    @Test
    void coreGraphicsIsOpenedBeforeMetalAndEachLibraryOnce() {
        Recorder r = new Recorder();
        SystemNatives natives = new SystemNatives(Linker.nativeLinker(), r::open);
        natives.downcall(Natives.Library.OBJC, "objc_autoreleasePoolPush", NO_ARGS);
        assertEquals(List.of(Natives.Library.OBJC.path), r.opened, "libobjc needs no framework");
        natives.downcall(Natives.Library.METAL, "MTLCreateSystemDefaultDevice", NO_ARGS);
        natives.downcall(Natives.Library.METAL, "MTLCreateSystemDefaultDevice", NO_ARGS);
        natives.load(Natives.Library.MPS);
        natives.load(Natives.Library.MPS);
        assertEquals(List.of(Natives.Library.OBJC.path, Natives.Library.CORE_GRAPHICS.path, Natives.Library.METAL.path,
                Natives.Library.MPS.path), r.opened, "CoreGraphics first (a command-line process gets no default GPU without it), each once");
    }

    @Test
    void aFrameworkFirstStillOpensCoreGraphicsBeforeIt() {
        Recorder r = new Recorder();
        new SystemNatives(Linker.nativeLinker(), r::open).load(Natives.Library.MPS);
        assertEquals(List.of(Natives.Library.CORE_GRAPHICS.path, Natives.Library.MPS.path), r.opened);
    }

    @Test
    void aMissingSymbolNamesItsLibrary() {
        SystemNatives natives = new SystemNatives(Linker.nativeLinker(), new Recorder()::open);
        JBurnException e = assertThrows(JBurnException.class, () -> natives.downcall(Natives.Library.METAL, "missing", NO_ARGS));
        assertTrue(e.getMessage().contains("missing") && e.getMessage().contains("Metal.framework"), e.getMessage());
    }
}
