package dev.jburn.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Optional;

/**
 * A shared library opened by name through the system loader (the first of several names that
 * loads), and the downcalls bound from it. Libraries stay loaded for the life of the process
 * (the global arena): CUDA libraries keep threads and driver state that must not be unloaded.
 */
@SuppressWarnings("restricted") // loading libraries and binding downcalls is what this class is for
final class NativeLibrary {
    private static final Linker LINKER = Linker.nativeLinker();

    private final String name;
    private final SymbolLookup lookup;

    private NativeLibrary(String name, SymbolLookup lookup) {
        this.name = name;
        this.lookup = lookup;
    }

    /** The first of {@code names} the loader finds; {@link CudaUnavailableException} naming all of them when none loads. */
    static NativeLibrary open(List<String> names) {
        StringBuilder why = new StringBuilder();
        boolean onlyMissing = true;
        for (String n : names) {
            try {
                return new NativeLibrary(n, SymbolLookup.libraryLookup(n, Arena.global()));
            } catch (IllegalArgumentException | IllegalCallerException e) {
                if (!why.isEmpty()) why.append("; ");
                why.append(n).append(": ").append(e.getMessage());
                onlyMissing &= ("Cannot open library: " + n).equals(e.getMessage());
            }
        }
        // The JDK's own message for a missing library only repeats the name: then the name alone says it.
        throw new CudaUnavailableException(String.join(" / ", names) + " not found on the library path"
                + (onlyMissing ? "" : " (" + why + ")"));
    }

    /** The library name that loaded, e.g. {@code libcuda.so.1}. */
    String name() { return name; }

    /** A downcall to {@code symbol}; {@link CudaUnavailableException} when the library lacks it (too old). */
    MethodHandle fn(String symbol, FunctionDescriptor fd) {
        return optional(symbol, fd).orElseThrow(() ->
                new CudaUnavailableException(name + " has no symbol " + symbol + " (library too old?)"));
    }

    /** A downcall to the first of {@code symbols} the library has (a versioned name, then its older twin). */
    MethodHandle fnAny(FunctionDescriptor fd, String... symbols) {
        for (String s : symbols) {
            Optional<MethodHandle> h = optional(s, fd);
            if (h.isPresent()) return h.get();
        }
        throw new CudaUnavailableException(name + " has none of the symbols " + String.join(", ", symbols));
    }

    Optional<MethodHandle> optional(String symbol, FunctionDescriptor fd) {
        Optional<MemorySegment> addr = lookup.find(symbol);
        return addr.map(a -> LINKER.downcallHandle(a, fd));
    }
}
