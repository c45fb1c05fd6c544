package dev.jburn.train;

/**
 * What {@link Trainer#fit} returns.
 *
 * @param state   the trained state (parameters, optimizer state, key): pass it to another {@code fit} to go on
 * @param history the logged values per epoch
 */
public record FitResult(TrainStep.State state, History history) {}
