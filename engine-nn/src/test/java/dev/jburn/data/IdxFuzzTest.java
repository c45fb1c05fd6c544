package dev.jburn.data;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.jburn.JBurnException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Jazzer fuzz target of {@link Idx#read}: any bytes give a tensor or a {@link JBurnException},
 * never another exception (or an OutOfMemoryError from a hostile header). {@code mvn test} runs
 * the seeds under {@code IdxFuzzTestInputs/fuzzIdx}; {@code JAZZER_FUZZ=1} fuzzes for
 * {@code maxDuration}.
 */
class IdxFuzzTest {
    private static Path file;

    @BeforeAll
    static void createFile() throws IOException { file = Files.createTempFile("jburn-idx-fuzz", ".idx"); }

    @AfterAll
    static void deleteFile() throws IOException { Files.deleteIfExists(file); }

    @FuzzTest(maxDuration = "10s")
    void fuzzIdx(byte[] data) throws IOException {
        Files.write(file, data);
        try {
            Idx.read(file).close();
        } catch (JBurnException expected) {
            // a fault named with its file: the contract
        }
    }
}
