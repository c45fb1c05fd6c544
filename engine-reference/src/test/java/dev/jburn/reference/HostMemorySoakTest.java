package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.spi.HostMemory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a new user writes first: eager ops in a loop that neither closes its tensors nor opens a
 * {@code Tensor.scope()}. Under a 1 GiB host budget (its own JVM, see engine-reference's pom) the
 * loop must run 200,000 ops without "out of host memory" (forgotten tensors are garbage, and the
 * budget must collect them before it refuses), and the process's resident memory must follow the
 * live memory: at most the budget above the start while it runs, and back within
 * {@link #RSS_AFTER_BOUND} of the start once the garbage is collected. Eager gradients whose results the
 * caller closes must free everything they make at once, with no collection needed.
 */
class HostMemorySoakTest {
    /** Eager ops in the no-close loop. */
    static final int OPS = 200_000;
    /** Gradient calls whose result the caller closes. */
    static final int GRAD_CALLS = 200;
    /**
     * Resident memory after the loop and a collection may exceed the start by this much (measured:
     * about 25 MiB; the JIT's code and the Java heap grow a little too).
     */
    static final long RSS_AFTER_BOUND = 96L << 20;

    @Test
    void aNoCloseLoopOfEagerOpsRunsUnderTheBudgetAndResidentMemoryFollowsLiveMemory() {
        assumeTrue(HostMemory.limit() == 1L << 30, "runs in the soak execution, with -Djburn.maxHostBytes=1g");
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux's /proc/self/status");
        long budget = HostMemory.limit();

        Tensor a = Tensor.iota(Shape.of(32, 64), DType.F64).divide(2048.0);
        Tensor x = a;
        for (int i = 0; i < 1_000; i++) x = x.multiply(0.999).add(a); // warm up the kernels and the allocator
        HostMemory.collect();
        long rss0 = rss(), live0 = HostMemory.live(), gcs0 = HostMemory.collections();
        System.out.printf("soak start: live %s, RSS %s, Java heap committed %s, budget %s%n", mib(live0), mib(rss0),
                mib(Runtime.getRuntime().totalMemory()), mib(budget));

        long peakLive = 0, peakRss = 0;
        long t0 = System.nanoTime();
        int ops = 0;
        try {
            while (ops < OPS) {
                x = x.multiply(0.999);
                x = x.add(a);
                x = x.tanh();
                ops += 3;
                if (ops % 300 == 0) {
                    x = x.dot(a.transpose()).dot(a).divide(4096.0); // transpose, two dots, divide
                    ops += 4;
                }
                if (ops % 1_000 < 4) {
                    peakLive = Math.max(peakLive, HostMemory.live());
                    peakRss = Math.max(peakRss, rss());
                }
            }
        } catch (JBurnException e) {
            throw new AssertionError(String.format("the no-close loop failed after %d ops in %.1f s (live %s, peak RSS %s): %s", ops,
                    (System.nanoTime() - t0) / 1e9, mib(HostMemory.live()), mib(peakRss), e.getMessage()), e);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long liveLoop = HostMemory.live(), rssLoop = rss();
        System.out.printf("soak loop: %d ops in %.1f s, %d collections; live peak %s, at end %s; RSS peak %s, at end %s%n",
                ops, seconds, HostMemory.collections() - gcs0, mib(peakLive), mib(liveLoop), mib(peakRss), mib(rssLoop));

        // Gradients: the caller closes each result, so nothing may be left for the garbage collector.
        Function<Tensor, Tensor> df = Autodiff.grad(t -> t.multiply(a).tanh().multiply(t).sum());
        df.apply(a).close();
        HostMemory.collect(); // the loop's garbage goes first, so that what follows counts the gradients alone
        long rssCollected = rss();
        System.out.printf("soak after the loop and a collection: live %s, RSS %s, Java heap committed %s%n", mib(HostMemory.live()),
                mib(rssCollected), mib(Runtime.getRuntime().totalMemory()));
        long liveBeforeGrads = HostMemory.live(), gcsBeforeGrads = HostMemory.collections();
        long peakGradLive = 0;
        long tg = System.nanoTime();
        for (int i = 0; i < GRAD_CALLS; i++) {
            try {
                df.apply(a).close();
            } catch (JBurnException e) {
                throw new AssertionError("gradient call " + i + " failed, live " + mib(HostMemory.live()) + ": " + e.getMessage(), e);
            }
            if (i % 100 == 0) peakGradLive = Math.max(peakGradLive, HostMemory.live());
        }
        long liveAfterGrads = HostMemory.live(), gcsAfterGrads = HostMemory.collections();
        System.out.printf("soak grads: %d calls in %.1f s, live before %s, peak %s, after %s, %d collections%n",
                GRAD_CALLS, (System.nanoTime() - tg) / 1e9, mib(liveBeforeGrads), mib(peakGradLive), mib(liveAfterGrads), gcsAfterGrads - gcsBeforeGrads);

        x = null;
        HostMemory.collect();
        long liveEnd = HostMemory.live(), rssEnd = rss();
        System.out.printf("soak end (after a collection): live %s, RSS %s (start %s), Java heap committed %s%n", mib(liveEnd), mib(rssEnd),
                mib(rss0), mib(Runtime.getRuntime().totalMemory()));

        assertTrue(peakLive <= budget, "live bytes " + peakLive + " above the budget " + budget);
        assertTrue(peakRss - rss0 <= budget, "RSS rose by " + mib(peakRss - rss0) + " while the loop ran, more than the budget");
        assertEquals(gcsBeforeGrads, gcsAfterGrads, "eager gradients whose results are closed needed a collection");
        assertTrue(liveAfterGrads - liveBeforeGrads <= 64 << 10,
                "eager gradients left " + (liveAfterGrads - liveBeforeGrads) + " bytes behind although each result was closed");
        assertTrue(liveEnd - live0 <= 1 << 20, "live bytes after the soak " + mib(liveEnd) + ", at the start " + mib(live0));
        assertTrue(rssCollected - rss0 <= RSS_AFTER_BOUND, "RSS after the loop and a collection " + mib(rssCollected) + " is more than "
                + mib(RSS_AFTER_BOUND) + " above the start " + mib(rss0));
    }

    /** The resident set size, from /proc/self/status. */
    static long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }

    static String mib(long bytes) { return String.format("%.1f MiB", bytes / 1048576.0); }
}
