package dev.jburn.data;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.jburn.JBurnException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Jazzer fuzz target of {@link Csv#read}: any bytes give a dataset or a {@link JBurnException}.
 * The first byte picks the options (header, delimiter, label by index or by name); the rest is
 * the file. {@code mvn test} runs the seeds under {@code CsvFuzzTestInputs/fuzzCsv};
 * {@code JAZZER_FUZZ=1} fuzzes for {@code maxDuration}.
 */
class CsvFuzzTest {
    private static Path file;

    @BeforeAll
    static void createFile() throws IOException { file = Files.createTempFile("jburn-csv-fuzz", ".csv"); }

    @AfterAll
    static void deleteFile() throws IOException { Files.deleteIfExists(file); }

    @FuzzTest(maxDuration = "10s")
    void fuzzCsv(byte[] data) throws IOException {
        int pick = data.length == 0 ? 0 : data[0] & 0xFF;
        Files.write(file, data.length == 0 ? data : Arrays.copyOfRange(data, 1, data.length));
        try {
            Csv.read(file, options(pick)).x().close();
        } catch (JBurnException expected) {
            // a fault named with its file and place: the contract
        }
    }

    static CsvOptions options(int pick) {
        CsvOptions o = CsvOptions.defaults().header((pick & 1) == 0).delimiter((pick & 2) == 0 ? ',' : ';');
        return switch ((pick >> 2) & 3) {
            case 0 -> o;
            case 1 -> o.label(0);
            case 2 -> o.label("label");
            default -> o.types(CsvOptions.ColumnType.FLOAT, CsvOptions.ColumnType.INT);
        };
    }
}
