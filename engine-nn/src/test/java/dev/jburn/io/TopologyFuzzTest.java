package dev.jburn.io;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.jburn.JBurnException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Jazzer fuzz target of the model topology JSON, read through {@link ModelFile#load}: the fuzzed
 * text is the {@code topology} of an otherwise well-formed model file, and any text gives a model
 * or a {@link JBurnException}. {@code mvn test} runs the seeds under {@code TopologyFuzzTestInputs/fuzzTopology};
 * {@code JAZZER_FUZZ=1} fuzzes for {@code maxDuration}.
 */
class TopologyFuzzTest {
    private static Path file;

    @BeforeAll
    static void createFile() throws IOException { file = Files.createTempFile("jburn-topology-fuzz", ".safetensors"); }

    @AfterAll
    static void deleteFile() throws IOException { Files.deleteIfExists(file); }

    @FuzzTest(maxDuration = "10s")
    void fuzzTopology(byte[] data) throws IOException {
        Files.write(file, modelFile(new String(data, StandardCharsets.UTF_8)));
        try {
            ModelFile.load(file);
        } catch (JBurnException expected) {
            // a fault named with its file: the contract
        }
    }

    /** A safetensors file with no tensors whose metadata holds {@code topology} and the other keys a model file has. */
    static byte[] modelFile(String topology) {
        var meta = Topology.JSON.createObjectNode();
        meta.put("format", ModelFile.FORMAT);
        meta.put("version", ModelFile.VERSION);
        meta.put("topology", topology);
        meta.put("frozen", "[]");
        meta.put("fingerprint", "0");
        meta.put("checksum", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"); // sha-256 of no bytes
        var header = Topology.JSON.createObjectNode();
        header.set("__metadata__", meta);
        byte[] json = header.toString().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + json.length).order(ByteOrder.LITTLE_ENDIAN).putLong(json.length).put(json).array();
    }
}
