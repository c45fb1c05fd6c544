/** Runnable examples and the {@code jburn} command line. */
module dev.jburn.examples {
    requires dev.jburn.api;
    requires dev.jburn.nn;

    exports dev.jburn.examples;
}
