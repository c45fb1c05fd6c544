package dev.jburn.cuda;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The NVRTC command line for a device, and the key a compiled kernel is cached under. Pure
 * functions, tested without a GPU.
 */
final class NvrtcOptions {
    private NvrtcOptions() {}

    /**
     * Options compiling straight to a CUBIN for compute capability {@code major.minor}
     * ({@code --gpu-architecture=sm_90}); C++17; no fast-math and no contraction of {@code a*b+c}
     * into one rounding ({@code --fmad=false}): a fused kernel must give exactly what the same ops
     * give one by one, and element-wise kernels are bound by memory, not arithmetic.
     */
    static List<String> forDevice(int major, int minor) {
        if (major < 1 || minor < 0 || minor > 9) throw new IllegalArgumentException("compute capability " + major + "." + minor);
        return List.of("--gpu-architecture=sm_" + major + minor, "--std=c++17", "--fmad=false", "--device-as-default-execution-space");
    }

    /**
     * SHA-256 (hex) of everything that decides the CUBIN: the source, the options, NVRTC's version
     * and the architecture. Fields are length-prefixed, so no two inputs share a key by concatenation.
     */
    static String cacheKey(String source, List<String> options, String nvrtcVersion, String arch) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            update(md, source);
            md.update((byte) options.size());
            for (String o : options) update(md, o);
            update(md, nvrtcVersion);
            update(md, arch);
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    private static void update(MessageDigest md, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        md.update(new byte[] {(byte) (b.length >>> 24), (byte) (b.length >>> 16), (byte) (b.length >>> 8), (byte) b.length});
        md.update(b);
    }
}
