package dev.jburn.conformance;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The random API caller ({@link ApiFuzzer}) on the cpu engine: no call may throw anything but a
 * {@link dev.jburn.JBurnException}, and each one must name the op the user called.
 *
 * <p>CI runs fixed seeds, bounded. To fuzz longer with fresh seeds:
 * <pre>
 * ./mvnw -pl conformance-tests -am test -Dsurefire.failIfNoSpecifiedTests=false -Dtest=ApiFuzzTest \
 *     -Djburn.fuzz.seeds=random -Djburn.fuzz.calls=200000
 * </pre>
 * ({@code jburn.fuzz.seeds} is a comma-separated list of seeds, or {@code random} for five fresh
 * ones; each printed report starts with its seed, so a finding replays with that seed.)
 */
class ApiFuzzTest {
    private static final long[] CI_SEEDS = {1, 2, 3, 4, 5};
    private static final int CI_CALLS = 3000;

    @Test
    void onlyJBurnExceptionsEscapeAndEachNamesTheOpCalled() {
        int calls = Integer.getInteger("jburn.fuzz.calls", CI_CALLS);
        List<String> failures = new ArrayList<>();
        int total = 0, jburn = 0, others = 0, misnamed = 0;
        for (long seed : seeds()) {
            ApiFuzzer.Report r = new ApiFuzzer(ApiFuzzer.defaultEntryPoints(), seed).run(calls);
            System.out.println(r.summary());
            total += r.calls();
            jburn += r.jburnExceptions();
            others += r.others();
            misnamed += r.misnamed();
            if (r.others() + r.misnamed() > 0) failures.add(r.summary());
        }
        System.out.printf("api fuzz total: %d calls, %d JBurnException, %d other throwables, %d misnamed ops%n",
                total, jburn, others, misnamed);
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    private static long[] seeds() {
        String p = System.getProperty("jburn.fuzz.seeds");
        if (p == null || p.isBlank()) return CI_SEEDS;
        if (p.equals("random")) return new java.util.SplittableRandom().longs(5).toArray();
        return Arrays.stream(p.split(",")).map(String::trim).mapToLong(Long::parseLong).toArray();
    }
}
