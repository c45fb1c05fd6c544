package dev.jburn.conformance;

import dev.jburn.nn.layers.LayerCatalog;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.fail;

/** Every kind of {@link LayerCatalog} has a case in {@link LayerCases} (so {@link LayerContract} checks it), and every case names a kind. */
class LayerCoverageTest {
    @Test
    void everyLayerKindHasAContractCase() {
        Set<String> covered = new LinkedHashSet<>();
        for (long seed = 0; seed < LayerContract.LAYER_SEEDS; seed++) LayerCases.all(seed).forEach(c -> covered.add(c.kind()));
        List<String> missing = LayerCatalog.kinds().stream().filter(k -> !covered.contains(k)).toList();
        List<String> unknown = covered.stream().filter(k -> !LayerCatalog.kinds().contains(k)).toList();
        if (!missing.isEmpty() || !unknown.isEmpty()) {
            fail("layer kinds without a LayerContract case: " + missing + "; cases of kinds not in LayerCatalog: " + unknown);
        }
    }
}
