package dev.jburn.cli;

import dev.jburn.examples.Doctor;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code jburn doctor}. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "List every engine found (available or not, and why), then run a short tensor session.")
final class DoctorCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override public Integer call() { return Doctor.run(new String[0], Main.out(spec)); }
}
