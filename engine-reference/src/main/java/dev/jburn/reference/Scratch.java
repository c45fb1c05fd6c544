package dev.jburn.reference;

import java.lang.ref.SoftReference;

/**
 * A per-thread scratch array for kernels that need a large temporary per task. A fresh large
 * array costs page faults and zeroing on every call; reusing one per worker thread keeps it
 * mapped and cache-warm. Contents are undefined on return; softly held, so memory pressure can
 * reclaim it. One user at a time per thread: a kernel must not call another that uses it.
 */
final class Scratch {
    private Scratch() {}

    private static final ThreadLocal<SoftReference<float[]>> FLOATS = new ThreadLocal<>();

    /** A float array of at least {@code n} elements, owned by the calling thread until its next call. */
    static float[] floats(int n) {
        SoftReference<float[]> ref = FLOATS.get();
        float[] a = ref == null ? null : ref.get();
        if (a == null || a.length < n) {
            a = new float[n];
            FLOATS.set(new SoftReference<>(a));
        }
        return a;
    }
}
