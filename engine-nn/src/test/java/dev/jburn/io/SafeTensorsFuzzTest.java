package dev.jburn.io;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Jazzer fuzz target of {@link SafeTensors#read}: any bytes give tensors or a {@link JBurnException},
 * never another exception (nor an OutOfMemoryError from a header that promises terabytes).
 * {@code mvn test} runs the seeds under {@code SafeTensorsFuzzTestInputs/fuzzSafeTensors};
 * {@code JAZZER_FUZZ=1} fuzzes for {@code maxDuration}.
 */
class SafeTensorsFuzzTest {
    private static Path file;

    @BeforeAll
    static void createFile() throws IOException { file = Files.createTempFile("jburn-safetensors-fuzz", ".safetensors"); }

    @AfterAll
    static void deleteFile() throws IOException { Files.deleteIfExists(file); }

    @FuzzTest(maxDuration = "10s")
    void fuzzSafeTensors(byte[] data) throws IOException {
        Files.write(file, data);
        try {
            SafeTensors.read(file).values().forEach(Tensor::close);
            SafeTensors.readMetadata(file);
        } catch (JBurnException expected) {
            // a fault named with its file: the contract
        }
    }
}
