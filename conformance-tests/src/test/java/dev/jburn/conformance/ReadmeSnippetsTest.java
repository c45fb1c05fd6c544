package dev.jburn.conformance;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The READMEs show the outsider projects that {@code .ci/outsider-projects.sh} builds and runs (the
 * first program, the example engine) file by file: each block marked {@code <!-- snippet: PATH -->}
 * must be that file as it is, so what a newcomer copies is what CI tested.
 */
class ReadmeSnippetsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern SNIPPET = Pattern.compile("<!-- snippet: (\\S+) -->\\s*\\n```[a-z]*\\n(.*?)```", Pattern.DOTALL);

    @Test
    void theRootReadmeShowsTheFirstProgramAsTested() throws IOException {
        check("README.md", List.of("docs/first-program/pom.xml", "docs/first-program/src/main/java/com/example/hello/Hello.java"));
    }

    @Test
    void theKitReadmeShowsTheExampleEngineAsTested() throws IOException {
        String e = "conformance-tests/example-engine/";
        check("conformance-tests/README.md", List.of(e + "pom.xml", e + "src/test/java/com/example/heap/HeapConformanceTest.java",
                e + "src/main/resources/META-INF/services/dev.jburn.spi.EngineProvider", e + "src/main/java/module-info.java",
                e + "src/main/java/com/example/heap/HeapProvider.java", e + "src/main/java/com/example/heap/HeapBuffer.java",
                e + "src/main/java/com/example/heap/HeapBackend.java"));
    }

    private static void check(String readme, List<String> expected) throws IOException {
        Map<String, String> shown = new LinkedHashMap<>();
        Matcher m = SNIPPET.matcher(Files.readString(ROOT.resolve(readme)));
        while (m.find()) shown.put(m.group(1), m.group(2));
        assertEquals(expected, List.copyOf(shown.keySet()), readme + ": the files it shows, in order");
        for (String path : expected) {
            assertEquals(Files.readString(ROOT.resolve(path)), shown.get(path), readme + " shows " + path + " differently from the file");
        }
    }
}
