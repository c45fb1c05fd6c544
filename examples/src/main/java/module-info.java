/** Runnable examples and the {@code jburn} command line. */
module dev.jburn.examples {
    requires dev.jburn.api;

    exports dev.jburn.examples;
}
