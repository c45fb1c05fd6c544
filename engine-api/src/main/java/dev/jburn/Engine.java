package dev.jburn;

import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A compute engine: the reference CPU engine ({@code "cpu"}) or an accelerator found on the
 * class path or module path through {@link ServiceLoader}.
 *
 * <pre>{@code
 * Engine.available().forEach(System.out::println);   // every provider, available or not, and why
 * Engine cpu = Engine.select("cpu");
 * Tensor t = Tensor.of(1f, 2f, 3f).to(cpu);
 * }</pre>
 *
 * One engine instance exists per name and device per process. An engine that drives several devices (the cuda
 * engine on a machine with several GPUs) gives one engine per device: {@code Engine.select("cuda:1")}; the plain name
 * is its default device ({@code -Djburn.cuda.device}, else 0). Tensors move between devices with {@link Tensor#to}.
 *
 * <pre>{@code
 * List<Engine> gpus = List.of(Engine.select("cuda:0"), Engine.select("cuda:1"));   // one replica per GPU
 * trainer.fit(state, train, Fit.epochs(5).batchSize(256).dataParallel(DataParallel.threads(gpus)));
 * }</pre>
 */
public final class Engine {
    private static final System.Logger LOG = System.getLogger("dev.jburn.Engine");
    private static final Map<String, Engine> CREATED = new ConcurrentHashMap<>();
    private static volatile Engine defaultEngine;
    /**
     * Whether the program picked an engine by name or listed the engines ({@link #available()}, as
     * {@code jburn doctor} does): then the default engine's fallback line is not news, and is logged at DEBUG.
     */
    private static volatile boolean choseOrListedEngines;
    /** While a function is traced on this thread, the tracing engine (so Tensor.of etc. become constants of the trace). */
    private static final ThreadLocal<Engine> THREAD_DEFAULT = new ThreadLocal<>();

    private final String name;
    private final int device;
    private final int priority;
    private final Backend backend;
    private final boolean tracing;

    private Engine(String name, int device, int priority, Backend backend) {
        this(name, device, priority, backend, false);
    }

    private Engine(String name, int device, int priority, Backend backend, boolean tracing) {
        this.name = name;
        this.device = device;
        this.priority = priority;
        this.backend = backend;
        this.tracing = tracing;
    }

    /** An uncached engine whose backend records a graph instead of computing (the compiler's tracer). */
    static Engine tracing(String name, Backend backend) { return new Engine(name, 0, -1, backend, true); }

    /** Whether this engine records a trace (the tensors on it are symbolic). */
    boolean isTracing() { return tracing; }

    /** Sets this thread's default-engine override ({@code null}: none) and returns the previous one. */
    static Engine swapThreadDefault(Engine e) {
        Engine previous = THREAD_DEFAULT.get();
        if (e == null) THREAD_DEFAULT.remove();
        else THREAD_DEFAULT.set(e);
        return previous;
    }

    /** The engine's name, e.g. {@code "cpu"}; the same for every device of one engine. */
    public String name() { return name; }

    /** The device this engine instance drives ({@code 1} for {@code Engine.select("cuda:1")}); 0 for one-device engines. */
    public int device() { return device; }

    /** The name with the device where it is not 0, e.g. {@code "cuda:1"}; what messages call this engine. */
    public String label() { return device == 0 ? name : name + ":" + device; }

    /** The provider's priority. */
    public int priority() { return priority; }

    /** The backend kernels; for engine implementers and the compiler. */
    public Backend backend() { return backend; }

    /**
     * Primitives this engine ran elsewhere because it lacks them natively, keyed {@code "op:dtype"}
     * (e.g. {@code {"sort:f32"=3}}); always empty for {@code cpu}.
     */
    public java.util.Map<String, Long> fallbackCounts() { return backend.fallbackCounts(); }

    /** What this engine runs natively. */
    public Capabilities capabilities() { return backend.capabilities(); }

    /**
     * The engine called {@code name} (case-insensitive), on its default device; {@code "name:N"} picks device N of an
     * engine that drives several ({@link EngineProvider#deviceCount()}).
     *
     * <pre>{@code
     * Engine gpu = Engine.select("cuda");     // needs dev.jburn:accel-burn-cuda on the class path and a GPU
     * Engine second = Engine.select("cuda:1"); // the second GPU
     * }</pre>
     *
     * @throws JBurnException when no available provider has that name: it says why that engine is
     *                        unavailable (or, for an engine JBurn ships, which artifact to add) and
     *                        lists the engines that are available; or when the device is not a number below the
     *                        engine's device count
     */
    public static Engine select(String name) {
        choseOrListedEngines = true;
        return selectNamed(name);
    }

    private static Engine selectNamed(String name) {
        String spec = name == null ? "" : name.trim().toLowerCase(java.util.Locale.ROOT);
        Engine e = CREATED.get(spec);
        if (e != null) return e;
        int colon = spec.lastIndexOf(':');
        String wanted = colon < 0 ? spec : spec.substring(0, colon);
        List<EngineProvider> providers = providers();
        for (EngineProvider p : providers) {
            if (!p.name().equals(wanted)) continue;
            Availability a = probe(p);
            if (!a.available()) {
                throw new JBurnException("engine", "engine '" + wanted + "' is unavailable: " + a.reason() + ". " + describe(providers, wanted));
            }
            return colon < 0 ? create(p) : create(p, device(p, spec.substring(colon + 1), spec));
        }
        String hint = ShippedEngines.named(wanted).map(ShippedEngines::howToAdd)
                .orElse("no provider of that name is on the class path or module path");
        throw new JBurnException("engine", "no engine named '" + wanted + "' (names are case-insensitive): " + hint + ". "
                + describe(providers, wanted));
    }

    /**
     * The best available engine: the one named by {@code -Djburn.engine} or {@code JBURN_ENGINE}
     * when set, otherwise the available provider of highest priority. When no accelerator is
     * available this is {@code cpu}, and one INFO line says why (unless the program already chose an
     * engine by name or listed them with {@link #available()}: then the line is DEBUG). While a function is being
     * traced by {@code Jit} on this thread, it is the tracing engine, so tensors created inside
     * the function ({@code Tensor.of}, {@code Tensor.full}, {@code Prng.key}) become constants of the graph.
     */
    public static Engine defaultEngine() {
        Engine traced = THREAD_DEFAULT.get();
        if (traced != null) return traced;
        Engine e = defaultEngine;
        if (e != null) return e;
        synchronized (Engine.class) {
            if (defaultEngine == null) defaultEngine = chooseDefault(EngineSelection.fromEnvironment());
            return defaultEngine;
        }
    }

    /**
     * A fresh, uncached engine from {@code provider} with {@code config} — for oracles and tests
     * (e.g. the cpu engine with vector kernels off), not for everyday use. Close its backend when done.
     *
     * <pre>{@code
     * Engine scalarOracle = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withVectorKernels(false));
     * }</pre>
     */
    public static Engine create(EngineProvider provider, EngineConfig config) {
        Availability a = probe(provider);
        if (!a.available()) throw new JBurnException("engine", "engine '" + provider.name() + "' is unavailable: " + a.reason());
        return new Engine(provider.name(), provider.defaultDevice(), provider.priority(), provider.create(config));
    }

    /** Every provider found, with availability and reason, highest priority first. */
    public static List<EngineInfo> available() {
        choseOrListedEngines = true;
        List<EngineInfo> out = new ArrayList<>();
        for (EngineProvider p : providers()) {
            Availability a = probe(p);
            out.add(new EngineInfo(p.name(), p.priority(), a.available(), a.reason()));
        }
        return List.copyOf(out);
    }

    /** The default-engine rule for a given selection, without caching; for tests. */
    static Engine chooseDefaultForTest(EngineSelection sel) { return chooseDefault(sel); }

    private static Engine chooseDefault(EngineSelection sel) {
        if (sel.requested().isPresent()) {
            return selectNamed(sel.requested().get());
        }
        List<EngineProvider> providers = providers();
        List<String> skipped = new ArrayList<>();
        for (EngineProvider p : providers) {
            Availability a = probe(p);
            if (a.available()) {
                if (!skipped.isEmpty()) {
                    LOG.log(fallbackLineLevel(),
                            "jburn: the default engine is '" + p.name() + "' (" + String.join("; ", skipped)
                                    + "); choose one with -Djburn.engine=NAME or JBURN_ENGINE=NAME");
                }
                return create(p);
            }
            skipped.add(p.name() + " unavailable: " + a.reason());
        }
        throw new JBurnException("engine", "no engine is available. " + describe(providers, "")
                + ". Add dev.jburn:engine-reference to the class path for the cpu engine, which runs everywhere.");
    }

    /** INFO for the default engine's fallback line, DEBUG once the program chose or listed engines itself. */
    static System.Logger.Level fallbackLineLevel() {
        return choseOrListedEngines ? System.Logger.Level.DEBUG : System.Logger.Level.INFO;
    }

    /** The provider's default device; its engine is cached under the plain name and under {@code name:device}. */
    private static Engine create(EngineProvider p) {
        Engine e = CREATED.get(p.name());
        if (e != null) return e;
        e = create(p, p.defaultDevice());
        Engine raced = CREATED.putIfAbsent(p.name(), e);
        return raced != null ? raced : e;
    }

    private static Engine create(EngineProvider p, int device) {
        return CREATED.computeIfAbsent(p.name() + ":" + device, key -> {
            try {
                return new Engine(p.name(), device, p.priority(), p.create(EngineConfig.fromSystemProperties(), device));
            } catch (JBurnException ex) {
                throw ex;
            } catch (RuntimeException | LinkageError ex) {
                throw new JBurnException("engine", "engine '" + key + "' failed to start: " + ex, ex);
            }
        });
    }

    /** The device number of {@code "name:N"}, checked against the provider's device count. */
    private static int device(EngineProvider p, String digits, String spec) {
        int n;
        try {
            n = Integer.parseInt(digits);
        } catch (NumberFormatException ex) {
            n = -1;
        }
        if (n < 0 || digits.startsWith("+")) {
            throw new JBurnException("engine", "'" + spec + "': the device after ':' must be a number >= 0, as in '" + p.name() + ":1'");
        }
        int count;
        try {
            count = p.deviceCount();
        } catch (RuntimeException | LinkageError ex) {
            throw new JBurnException("engine", "engine '" + p.name() + "' could not count its devices: " + ex, ex);
        }
        if (n >= count) {
            throw new JBurnException("engine", "engine '" + p.name() + "' has " + count + (count == 1 ? " device" : " devices")
                    + " (" + p.name() + ":0" + (count > 1 ? " to " + p.name() + ":" + (count - 1) : "") + "); there is no '" + spec + "'");
        }
        return n;
    }

    private static Availability probe(EngineProvider p) {
        try {
            return p.availability();
        } catch (RuntimeException | LinkageError ex) {
            return Availability.no("probe failed: " + ex);
        }
    }

    private static List<EngineProvider> providers() {
        List<EngineProvider> list = new ArrayList<>();
        ServiceLoader<EngineProvider> loader = ServiceLoader.load(EngineProvider.class, Engine.class.getClassLoader());
        var it = loader.iterator();
        while (true) {
            try {
                if (!it.hasNext()) break;
                list.add(it.next());
            } catch (java.util.ServiceConfigurationError err) {
                LOG.log(System.Logger.Level.WARNING, "jburn: skipping a broken engine provider: " + err.getMessage());
            }
        }
        // One provider per name: the first found wins (class-path order).
        Map<String, EngineProvider> byName = new java.util.LinkedHashMap<>();
        for (EngineProvider p : list) byName.putIfAbsent(p.name(), p);
        List<EngineProvider> out = new ArrayList<>(byName.values());
        out.sort(Comparator.comparingInt(EngineProvider::priority).reversed().thenComparing(EngineProvider::name));
        return out;
    }

    /** The available engines and why the others are not, each provider probed once; {@code except} is left out. */
    private static String describe(List<EngineProvider> providers, String except) {
        if (providers.isEmpty()) return "No engine providers were found on the class path or module path";
        List<String> avail = new ArrayList<>(), unavail = new ArrayList<>();
        for (EngineProvider p : providers) {
            Availability a = probe(p);
            if (a.available()) avail.add(p.name());
            else if (!p.name().equals(except)) unavail.add(p.name() + " (" + a.reason() + ")");
        }
        return "Available: [" + String.join(", ", avail) + "]" + (unavail.isEmpty() ? "" : "; unavailable: " + String.join(", ", unavail));
    }

    @Override
    public String toString() { return "Engine[" + label() + "]"; }
}
