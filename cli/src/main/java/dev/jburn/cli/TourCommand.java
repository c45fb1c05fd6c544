package dev.jburn.cli;

import dev.jburn.examples.Tour;
import picocli.CommandLine.Command;

/** {@code jburn tour}. */
@Command(name = "tour", mixinStandardHelpOptions = true, description = "The README's tour of the tensor API.")
final class TourCommand implements Runnable {
    @Override public void run() { Tour.main(new String[0]); }
}
