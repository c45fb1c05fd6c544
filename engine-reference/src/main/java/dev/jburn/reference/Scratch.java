package dev.jburn.reference;

import java.lang.ref.SoftReference;

/**
 * Per-thread scratch arrays for kernels that need a large temporary per task. A fresh large
 * array costs page faults and zeroing on every call; reusing one per worker thread keeps it
 * mapped and cache-warm. Contents are undefined on return; softly held, so memory pressure
 * can reclaim them.
 */
final class Scratch {
    private Scratch() {}

    private static final ThreadLocal<SoftReference<float[]>[]> FLOATS = ThreadLocal.withInitial(Scratch::slots);

    @SuppressWarnings("unchecked")
    private static SoftReference<float[]>[] slots() { return new SoftReference[4]; }

    /** A float array of at least {@code n} elements for slot {@code slot} (0 to 3) of the calling thread. */
    static float[] floats(int slot, int n) {
        SoftReference<float[]>[] s = FLOATS.get();
        float[] a = s[slot] == null ? null : s[slot].get();
        if (a == null || a.length < n) {
            a = new float[n];
            s[slot] = new SoftReference<>(a);
        }
        return a;
    }
}
