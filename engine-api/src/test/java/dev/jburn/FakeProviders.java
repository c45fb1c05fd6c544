package dev.jburn;

import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

import java.lang.reflect.Proxy;

/** Providers that exercise discovery without any real engine. */
final class FakeProviders {
    private FakeProviders() {}

    /** Highest priority, but its device is missing. */
    public static final class Unavailable implements EngineProvider {
        @Override public String name() { return "fakegpu"; }
        @Override public int priority() { return 100; }
        @Override public Availability availability() { return Availability.no("no fake device attached"); }
        @Override public Backend create(EngineConfig config) { throw new AssertionError("must not be created"); }
    }

    /** Available, with three devices (default: device 1) and a backend that only knows its name. */
    public static final class Host implements EngineProvider {
        @Override public String name() { return "fakehost"; }
        @Override public int priority() { return 5; }
        @Override public Availability availability() { return Availability.yes("a fake host engine"); }
        @Override public int deviceCount() { return 3; }
        @Override public int defaultDevice() { return 1; }
        @Override public Backend create(EngineConfig config) { return create(config, defaultDevice()); }
        @Override public Backend create(EngineConfig config, int device) {
            return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "name" -> "fakehost";
                        case "close" -> null;
                        case "toString" -> "FakeHostBackend";
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> throw new JBurnException(method.getName(), "fake backend");
                    });
        }
    }

    /** A broken provider whose probe throws: discovery must report it, not fail. */
    public static final class Throwing implements EngineProvider {
        @Override public String name() { return "broken"; }
        @Override public int priority() { return 50; }
        @Override public Availability availability() { throw new IllegalStateException("driver exploded"); }
        @Override public Backend create(EngineConfig config) { throw new AssertionError(); }
    }
}
