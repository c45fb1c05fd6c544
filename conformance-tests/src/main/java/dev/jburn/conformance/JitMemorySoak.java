package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.JitOptions;
import dev.jburn.graph.TensorType;
import dev.jburn.spi.HostMemory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A bounded soak of what the Jit leaves behind on one engine. Round after round it builds input
 * tensors, compiles new functions ({@link Jit}: fused element-wise chains, a fused reduction, a dot
 * with a captured constant, a {@code cond}, a donated input, a gradient through {@link Autodiff}, an
 * eager op on a captured tensor closed inside the trace),
 * calls them, closes every result and input, and drops the functions; one long-lived function with a
 * small cache sees every signature, so its cache evicts as it goes. The signatures cycle through
 * several shapes and dtypes, so every round compiles anew.
 *
 * <p>The engine's memory counters (a name and a supplier each: {@link HostMemory#live()} for host
 * memory, a device engine's live bytes, a count of cached pipelines) must be back at their start
 * value after every round, with no garbage collection in between (tensors and compiled functions
 * free deterministically, not through cleaners), and stay within {@code bound} of it while a round
 * runs. The start is taken after one warm-up cycle (kernels, pipelines and per-thread workspaces
 * exist by then) and a collection of earlier garbage.
 *
 * <pre>{@code
 * JitMemorySoak.Report r = JitMemorySoak.run(Engine.select("cpu"), Map.of("host bytes", HostMemory::live),
 *         Duration.ofSeconds(3), 4 << 20);
 * System.out.println(r);
 * }</pre>
 */
public final class JitMemorySoak {
    private JitMemorySoak() {}

    /**
     * Every shape of {@code [16, 24]}, {@code [7, 33]}, {@code [3, 5, 8]} in f32 and f64: the signatures
     * the rounds cycle through by default (the dot's right side is {@code [last, 6]}).
     */
    public static final List<TensorType> SIGNATURES = signatures(List.of(DType.F32, DType.F64),
            List.of(Shape.of(16, 24), Shape.of(7, 33), Shape.of(3, 5, 8)));
    /** Compiled functions a round makes and compiles (the long-lived one aside). */
    public static final int FUNCTIONS_PER_ROUND = 8;

    /**
     * What the soak did.
     *
     * @param rounds       measured rounds (after the warm-up cycle)
     * @param compilations traces of new functions and signatures during those rounds
     * @param warmUp       time of the warm-up cycle (compiling kernels)
     * @param elapsed      time of the measured rounds
     * @param start        each counter at the start
     * @param peakAbove    each counter's largest excess over its start seen during a round
     */
    public record Report(int rounds, long compilations, Duration warmUp, Duration elapsed, Map<String, Long> start, Map<String, Long> peakAbove) {
        @Override
        public String toString() {
            return String.format("warm-up %.1f s, then %d rounds, %d compilations in %.1f s; start %s, peak above start %s",
                    warmUp.toNanos() / 1e9, rounds, compilations, elapsed.toNanos() / 1e9, start, peakAbove);
        }
    }

    /**
     * Runs warm-up (one round per signature of {@link #SIGNATURES}) and then rounds until
     * {@code duration} has passed (at least one full cycle of signatures, at most {@code maxRounds});
     * throws an {@link AssertionError} naming the round and the counters as soon as a counter is off
     * its start after a round, or more than {@code bound} above it during one.
     */
    public static Report run(Engine engine, Map<String, LongSupplier> counters, Duration duration, long bound, int maxRounds) {
        return run(engine, SIGNATURES, counters, duration, bound, maxRounds);
    }

    /**
     * {@link #run(Engine, Map, Duration, long, int)} cycling through {@code signatures} (at least two,
     * so that the long-lived function's cache of one evicts): fewer for an engine whose first
     * compilation of a kernel is slow.
     */
    public static Report run(Engine engine, List<TensorType> signatures, Map<String, LongSupplier> counters, Duration duration,
                             long bound, int maxRounds) {
        if (signatures.size() < 2) throw new IllegalArgumentException("the soak needs at least two signatures, got " + signatures);
        int cycle = signatures.size();
        CompiledFunction shared = Jit.compile(x -> x.multiply(x).add(1.0).sqrt().sum(0), JitOptions.defaults().withCacheLimit(1));
        long w0 = System.nanoTime();
        for (int r = 0; r < cycle; r++) round(engine, signatures.get(r), r, shared, counters, null, null, 0);
        Duration warmUp = Duration.ofNanos(System.nanoTime() - w0);
        HostMemory.collect(); // earlier tests' and the warm-up's garbage: what follows must free without one
        Map<String, Long> start = read(counters);
        Map<String, Long> peak = new LinkedHashMap<>();
        for (String name : counters.keySet()) peak.put(name, 0L);
        long gcs0 = HostMemory.collections();
        long t0 = System.nanoTime();
        int rounds = 0;
        long compilations = 0;
        while (rounds < maxRounds && (rounds < cycle || System.nanoTime() - t0 < duration.toNanos())) {
            int round = cycle + rounds;
            TensorType sig = signatures.get(round % cycle);
            Map<String, Long> during = new LinkedHashMap<>();
            compilations += round(engine, sig, round, shared, counters, start, during, bound);
            for (var e : during.entrySet()) peak.merge(e.getKey(), e.getValue() - start.get(e.getKey()), Math::max);
            Map<String, Long> after = read(counters);
            if (!after.equals(start)) {
                long gcs = HostMemory.collections() - gcs0;
                throw new AssertionError("after round " + round + " (" + sig + ") the counters are " + after + ", at the start " + start
                        + (gcs == 0 ? ": something the round made was not freed when it was closed"
                        : " (" + gcs + " collection(s) ran meanwhile: a cleaner may have freed older garbage)"));
            }
            rounds++;
        }
        return new Report(rounds, compilations, warmUp, Duration.ofNanos(System.nanoTime() - t0), start, peak);
    }

    private static List<TensorType> signatures(List<DType> dtypes, List<Shape> shapes) {
        List<TensorType> all = new ArrayList<>();
        for (DType d : dtypes) for (Shape s : shapes) all.add(new TensorType(d, s));
        return List.copyOf(all);
    }

    /**
     * One round; returns the traces it caused. Reads the counters into {@code during} (when given)
     * while every result is alive, and checks them against {@code bound} there.
     */
    private static long round(Engine engine, TensorType sig, int r, CompiledFunction shared, Map<String, LongSupplier> counters,
                              Map<String, Long> start, Map<String, Long> during, long bound) {
        int sharedTraces = shared.traceCount();
        Shape s = sig.shape();
        DType d = sig.dtype();
        int last = s.dim(s.rank() - 1);
        List<Tensor> owned = new ArrayList<>();
        try {
            // Inputs depend on the signature alone, so the cond takes the branch the warm-up took for it.
            Tensor x = own(owned, input(engine, s, d, 0.1 * s.rank() + 0.01 * s.dim(0)));
            Tensor w = own(owned, input(engine, Shape.of(last, 6), d, 0.5));
            Tensor v = own(owned, input(engine, Shape.of(last), d, 0.7));
            Tensor donated = input(engine, s, d, 0.3); // the Jit closes it

            CompiledFunction chain = Jit.compile(t -> t.multiply(1.5).add(0.25).tanh().multiply(t).exp());
            CompiledFunction reduction = Jit.compile(t -> t.multiply(t).add(1.0).log().sum(s.rank() - 1));
            CompiledFunction dot = Jit.compile(t -> t.dot(w).add(Tensor.scalar(0.5, d)).maximum(0.0));
            CompiledFunction pair = Jit.compile((a, b) -> a.dot(b).multiply(2.0).sum());
            CompiledFunction branch = Jit.compile(t -> Jit.cond(t.sum().greater(0.0), () -> t.exp(), () -> t.negate()));
            CompiledFunction inPlace = Jit.compile(t -> t.multiply(2.0).add(1.0), JitOptions.defaults().withDonation(0));
            CompiledFunction grad = Jit.compile(Autodiff.grad(t -> t.multiply(t).tanh().multiply(v).sum()));
            // An op on a captured tensor alone runs eagerly at trace time; closing its result there is safe (it became a constant).
            CompiledFunction eagerPart = Jit.compile(t -> {
                try (Tensor m = v.max()) {
                    return t.divide(m);
                }
            });

            own(owned, chain.apply(x));
            own(owned, reduction.apply(x));
            own(owned, dot.apply(x));
            own(owned, pair.apply(x, w));
            own(owned, branch.apply(x));
            own(owned, inPlace.apply(donated));
            own(owned, grad.apply(x));
            own(owned, eagerPart.apply(x));
            own(owned, shared.apply(x));
            check(owned, s, d, last);

            if (during != null) {
                Map<String, Long> now = read(counters);
                for (var e : now.entrySet()) {
                    if (e.getValue() > start.get(e.getKey()) + bound) {
                        throw new AssertionError("during round " + r + " (" + sig + ") " + e.getKey() + " is " + e.getValue()
                                + ", more than " + bound + " above its start " + start.get(e.getKey()));
                    }
                }
                during.putAll(now);
            }
            return chain.traceCount() + reduction.traceCount() + dot.traceCount() + pair.traceCount() + branch.traceCount()
                    + inPlace.traceCount() + grad.traceCount() + eagerPart.traceCount() + shared.traceCount() - sharedTraces;
        } finally {
            for (Tensor t : owned) t.close();
        }
    }

    /** The results have the shapes the functions promise (so every function really ran). */
    private static void check(List<Tensor> owned, Shape s, DType d, int last) {
        Shape rows = s.rank() == 2 ? Shape.of(s.dim(0)) : Shape.of(s.dim(0), s.dim(1));
        int[] dotDims = s.dims().clone();
        dotDims[dotDims.length - 1] = 6;
        List<Shape> want = List.of(s, Shape.of(last, 6), Shape.of(last), s, rows, Shape.of(dotDims), Shape.of(), s, s, s, s, shared(s));
        for (int i = 0; i < want.size(); i++) {
            Tensor t = owned.get(i);
            if (!t.shape().equals(want.get(i)) || t.dtype() != d) {
                throw new AssertionError("result " + i + " is " + t.dtype().shortName() + t.shape() + ", expected " + d.shortName() + want.get(i));
            }
        }
    }

    private static Shape shared(Shape s) {
        int[] dims = java.util.Arrays.copyOfRange(s.dims(), 1, s.rank());
        return Shape.of(dims);
    }

    private static Tensor own(List<Tensor> owned, Tensor t) {
        owned.add(t);
        return t;
    }

    /** Smooth values of {@code shape} on {@code engine}; temporaries made on the way are closed. */
    private static Tensor input(Engine engine, Shape shape, DType dtype, double phase) {
        Tensor t;
        try (Tensor i = Tensor.iota(shape, dtype); Tensor scaled = i.multiply(0.37); Tensor shifted = scaled.add(phase)) {
            t = shifted.sin();
        }
        if (t.engine() == engine) return t;
        try (t) {
            return t.to(engine);
        }
    }

    private static Map<String, Long> read(Map<String, LongSupplier> counters) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (var e : counters.entrySet()) m.put(e.getKey(), e.getValue().getAsLong());
        return m;
    }
}
