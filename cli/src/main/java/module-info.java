/** The {@code jburn} command line: train, evaluate, summary, serve, example, doctor, tour. */
module dev.jburn.cli {
    requires dev.jburn.api;
    requires dev.jburn.nn;
    requires dev.jburn.serving;
    requires dev.jburn.examples;
    requires info.picocli;

    opens dev.jburn.cli to info.picocli;
    exports dev.jburn.cli;
}
