package dev.jburn.bench.peer;

/** One runtime's outcome for one workload: a timing, work this runtime cannot do, or an error. */
public sealed interface Cell {
    record Measured(Timing timing) implements Cell {}

    record NotApplicable(String reason) implements Cell {}

    record Failed(String error) implements Cell {}
}
