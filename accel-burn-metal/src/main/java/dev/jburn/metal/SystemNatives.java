package dev.jburn.metal;

import dev.jburn.JBurnException;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link Natives} over real libraries: each opened once, on first use, by {@code open} (on a Mac
 * {@code SymbolLookup.libraryLookup} of the install path, which dlopen finds in the dyld shared cache).
 * CoreGraphics is opened before any framework: a command-line process (no window server connection)
 * gets no GPU from {@code MTLCreateSystemDefaultDevice} unless CoreGraphics was loaded first. The
 * opening order is tested with a recording {@code open} ({@code SystemNativesTest}); no handle is
 * invoked there.
 */
final class SystemNatives implements Natives {
    private final Linker linker;
    private final Function<String, SymbolLookup> open;
    /** Opened libraries, in the order they were opened. */
    private final Map<Library, SymbolLookup> opened = new LinkedHashMap<>();

    /** Binds through {@code linker} symbols of libraries that {@code open} opens by install path. */
    SystemNatives(Linker linker, Function<String, SymbolLookup> open) {
        this.linker = linker;
        this.open = open;
    }

    private synchronized SymbolLookup lookup(Library library) {
        if (library != Library.OBJC && !opened.containsKey(Library.CORE_GRAPHICS)) {
            opened.put(Library.CORE_GRAPHICS, open.apply(Library.CORE_GRAPHICS.path));
        }
        return opened.computeIfAbsent(library, l -> open.apply(l.path));
    }

    @Override
    public MethodHandle downcall(Library library, String symbol, FunctionDescriptor descriptor) {
        return linker.downcallHandle(lookup(library).find(symbol)
                .orElseThrow(() -> new JBurnException("metal", "no symbol " + symbol + " in " + library.path)), descriptor);
    }

    @Override
    public void load(Library library) { lookup(library); }
}
