package dev.jburn.cuda;

/** Definitions the hand-written kernels share: integer type names and F16/BF16 bits to float. */
final class LineKernelsCommon {
    private LineKernelsCommon() {}

    static final String TEXT = """
            typedef unsigned long long u64; typedef long long i64;
            static __device__ __forceinline__ float jb_bf16(unsigned short h) { return __uint_as_float(((unsigned int)h) << 16); }
            static __device__ __forceinline__ float jb_f16(unsigned short h) {
                unsigned int e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
                float v = e == 0 ? (float)m * 5.9604644775390625e-8f
                        : e == 31 ? (m ? __uint_as_float(0x7fc00000u) : __uint_as_float(0x7f800000u))
                        : __uint_as_float(((e + 112u) << 23) | (m << 13));
                return (h & 0x8000u) ? -v : v;
            }
            """;
}
