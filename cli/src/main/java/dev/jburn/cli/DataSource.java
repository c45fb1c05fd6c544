package dev.jburn.cli;

import dev.jburn.JBurnException;
import dev.jburn.data.FashionMnist;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Where {@code jburn train} finds Fashion-MNIST, in this order: {@code --data DIR}, {@code $JBURN_DATA}, the Debian
 * package's {@code /usr/share/datasets/fashion-mnist}, else the subset embedded in the jar (the first 3000 training
 * and 600 test examples; see its LICENSE).
 *
 * @param data        the loaded data
 * @param description one line saying which data it is and, for the subset, how to get the full set
 */
record DataSource(FashionMnist data, String description) {
    static final Path DEBIAN = Path.of("/usr/share/datasets/fashion-mnist");
    private static final String EMBEDDED = "fashion-mnist-subset/";
    private static final List<String> FILES = List.of("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
            "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz");

    static DataSource resolve(Path option, String env) {
        if (option != null) return load(option, "--data " + option);
        if (env != null && !env.isBlank()) return load(Path.of(env), "$JBURN_DATA=" + env);
        if (Files.isDirectory(DEBIAN)) return load(DEBIAN, DEBIAN + " (Debian package dataset-fashion-mnist)");
        return embedded();
    }

    private static DataSource load(Path dir, String where) {
        if (!Files.isDirectory(dir)) throw new JBurnException("train", "no data directory " + dir + " (from " + where + ")");
        FashionMnist d = FashionMnist.load(dir);
        return new DataSource(d, "Fashion-MNIST from " + where + ": " + d.train().size() + " training, " + d.test().size() + " test images");
    }

    static DataSource embedded() {
        try {
            Path dir = Files.createTempDirectory("jburn-fashion-subset");
            // deleteOnExit runs in reverse order of registration: the folder first registered is deleted last,
            // after its files (registered after it the folder stayed behind, non-empty when its turn came).
            dir.toFile().deleteOnExit();
            for (String f : FILES) {
                try (InputStream in = DataSource.class.getResourceAsStream(EMBEDDED + f)) {
                    if (in == null) throw new JBurnException("train", "the embedded Fashion-MNIST subset is missing from the jar (" + f + ")");
                    Files.copy(in, dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
                }
                dir.resolve(f).toFile().deleteOnExit();
            }
            FashionMnist d = FashionMnist.load(dir);
            return new DataSource(d, "the Fashion-MNIST subset embedded in jburn (" + d.train().size() + " training, " + d.test().size()
                    + " test images); for the full 60000/10000: apt-get install dataset-fashion-mnist, or --data DIR");
        } catch (IOException e) {
            throw new JBurnException("train", "cannot unpack the embedded data: " + e.getMessage(), e);
        }
    }
}
