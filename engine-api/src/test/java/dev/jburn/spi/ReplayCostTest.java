package dev.jburn.spi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class ReplayCostTest {
    private final ReplayCost cost = new ReplayCost(4e-6, 400e9);

    @Test
    void copiesMayTakeHalfTheSavedHostTime() {
        // 50 launches save 200 µs; half of it copies 40 MB at 400 GB/s
        assertTrue(cost.worthReplaying(50, 39_900_000));
        assertFalse(cost.worthReplaying(50, 40_100_000));
        assertFalse(cost.worthReplaying(0, 1), "nothing saved, something copied");
        assertTrue(cost.worthReplaying(0, 0));
    }

    @Test
    void aLargeElementwiseGraphIsNotWorthIt() {
        assertFalse(cost.worthReplaying(1, 4L * 64 << 20), "a*b+c over 16M f32: one launch, 256 MiB to copy");
        assertTrue(cost.worthReplaying(50, 8L << 20), "an MLP's Adam step: 50 launches, 8 MiB");
    }

    @Test
    void ratesMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new ReplayCost(0, 1e9));
        assertThrows(IllegalArgumentException.class, () -> new ReplayCost(1e-6, Double.NaN));
        assertTrue(ReplayCost.refusal(2, 3 << 20).contains("2 launches") && ReplayCost.refusal(2, 3 << 20).contains("3.0 MiB"));
    }
}
