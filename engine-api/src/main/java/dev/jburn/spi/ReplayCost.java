package dev.jburn.spi;

import java.util.List;

/**
 * Whether a compiled graph recorded once and replayed (the cuda engine's CUDA graphs, the Vulkan engine's recorded
 * command buffers) pays for itself. A replay binds the buffers it was recorded with, so each one copies the caller's
 * inputs into the recording's own buffers and its results out to fresh ones; what it saves is the host's work per
 * kernel launch. A training step (dozens of launches, a few MiB of parameters and batch) gains; a large elementwise
 * graph (one launch over hundreds of MiB) would spend more device time copying than the host time it saves.
 *
 * <pre>{@code
 * ReplayCost cost = new ReplayCost(4e-6, 400e9);
 * boolean keep = cost.worthReplaying(launches, ReplayCost.copyBytes(inputs, outputs));
 * }</pre>
 *
 * @param hostSecondsPerLaunch host time a replay saves per recorded launch (conservatively)
 * @param copyBytesPerSecond   the device's copy rate assumed for the replay's copies (each byte counted once)
 */
public record ReplayCost(double hostSecondsPerLaunch, double copyBytesPerSecond) {
    public ReplayCost {
        if (!(hostSecondsPerLaunch > 0) || !(copyBytesPerSecond > 0)) {
            throw new IllegalArgumentException("replay cost: rates must be positive, got " + hostSecondsPerLaunch + " s and " + copyBytesPerSecond + " B/s");
        }
    }

    /** True when the copies cost at most half the host time the recorded {@code launches} save. */
    public boolean worthReplaying(long launches, long copyBytes) {
        return copyBytes / copyBytesPerSecond <= 0.5 * launches * hostSecondsPerLaunch;
    }

    /** Why a recording of {@code launches} with {@code copyBytes} to copy is not kept (for a verbose log). */
    public static String refusal(long launches, long copyBytes) {
        return String.format("%d launches save less host time than copying its %.1f MiB in and out costs", launches, copyBytes / 1048576.0);
    }

    /** Bytes a replay copies: every input in, every result out. */
    public static long copyBytes(List<Operand> inputs, List<Buffer> outputs) {
        long bytes = 0;
        for (Operand in : inputs) bytes += in.buffer().byteSize();
        for (Buffer out : outputs) bytes += out.byteSize();
        return bytes;
    }
}
