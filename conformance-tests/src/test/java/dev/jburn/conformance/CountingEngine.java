package dev.jburn.conformance;

import dev.jburn.Engine;
import dev.jburn.reference.ReferenceProvider;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cpu engine under another name, counting the transfers from its memory to the host: on a GPU engine each is a
 * copy and a wait for the device, so tests use it to check what is read back and when.
 */
final class CountingEngine {
    private CountingEngine() {}

    /** Downloads so far, over every test of this JVM (compare before and after). */
    static final AtomicLong DOWNLOADS = new AtomicLong();
    static final Engine ENGINE = Engine.create(new Provider(), EngineConfig.defaults().withThreads(1));

    private static final class Provider implements EngineProvider {
        @Override public String name() { return "counting"; }
        @Override public int priority() { return -1; }
        @Override public Availability availability() { return Availability.yes("test double"); }
        @Override public Backend create(EngineConfig config) {
            return new ForwardingBackend(new ReferenceProvider().create(config)) {
                @Override public String name() { return "counting"; }
                @Override public void download(Buffer src, long offset, MemorySegment dst) {
                    DOWNLOADS.incrementAndGet();
                    super.download(src, offset, dst);
                }
            };
        }
    }
}
