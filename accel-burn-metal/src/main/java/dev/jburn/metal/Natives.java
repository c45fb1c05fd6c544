package dev.jburn.metal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Where the bridge's native functions come from: each call site asks for one symbol with one exact
 * descriptor. On a Mac that is the system linker over libobjc, CoreGraphics, Metal and
 * MetalPerformanceShaders; in the tests it is a fake Objective-C runtime that records every call, so
 * the bridge's call sequence is tested where no Mac exists.
 */
interface Natives {
    /** A downcall handle for {@code symbol} of {@code library} with exactly {@code descriptor} (never variadic). */
    MethodHandle downcall(Library library, String symbol, FunctionDescriptor descriptor);

    /** Loads {@code library} so that its Objective-C classes are registered (MPS has no C function the bridge calls). */
    void load(Library library);

    /** The system libraries the bridge calls, by install path (they live in the dyld shared cache; dlopen finds them by path). */
    enum Library {
        OBJC("/usr/lib/libobjc.A.dylib"),
        // Command-line processes need CoreGraphics loaded before MTLCreateSystemDefaultDevice finds a GPU.
        CORE_GRAPHICS("/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"),
        METAL("/System/Library/Frameworks/Metal.framework/Metal"),
        MPS("/System/Library/Frameworks/MetalPerformanceShaders.framework/MetalPerformanceShaders");

        final String path;

        Library(String path) { this.path = path; }
    }

    /** The real libraries, opened on first use and kept for the process (they are never unloaded on macOS anyway). */
    static Natives system() {
        return new SystemNatives(Linker.nativeLinker(), path -> SymbolLookup.libraryLookup(path, Arena.global()));
    }
}
