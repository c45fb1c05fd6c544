package dev.jburn.kernels;

import dev.jburn.Shape;
import dev.jburn.kernels.FlatLayout.Read;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class FlatLayoutTest {
    @Test
    void aBiasOverChannelsLastActivationsIsReadInPlace() {
        FlatLayout l = FlatLayout.of(List.of(Shape.of(128, 26, 26, 32), Shape.of(1, 32)), Shape.of(128, 26, 26, 32));
        assertEquals(Shape.of(128 * 26 * 26, 32), l.out());
        assertEquals(List.of(Read.FULL, Read.TRAILING), l.reads());
        assertEquals(Shape.of(32), l.operand(1, Shape.of()));
        assertEquals("ft:32", l.tag());
        // Several trailing axes, with a one-element operand beside them.
        FlatLayout m = FlatLayout.of(List.of(Shape.of(3, 4), Shape.of(2, 3, 4), Shape.of(1, 1)), Shape.of(2, 3, 4));
        assertEquals(Shape.of(2, 12), m.out());
        assertEquals("tfs:12", m.tag());
        assertEquals(Shape.of(1), m.operand(2, Shape.of(1)));
    }

    @Test
    void fullAndOneElementOperandsKeepTheFlatOutput() {
        FlatLayout l = FlatLayout.of(List.of(Shape.of(6, 4), Shape.of()), Shape.of(6, 4));
        assertEquals(Shape.of(24), l.out());
        assertEquals("fs", l.tag());
        assertEquals(Shape.of(24), l.operand(0, Shape.of()));
    }

    @Test
    void otherBroadcastsAndEmptyOutputsHaveNoLayout() {
        assertNull(FlatLayout.of(List.of(Shape.of(6, 4), Shape.of(6, 1)), Shape.of(6, 4)), "a column is not a trailing part");
        assertNull(FlatLayout.of(List.of(Shape.of(4), Shape.of(3, 4)), Shape.of(2, 3, 4)), "two different trailing parts");
        assertNull(FlatLayout.of(List.of(Shape.of(0, 4), Shape.of(4)), Shape.of(0, 4)), "an empty output");
    }
}
