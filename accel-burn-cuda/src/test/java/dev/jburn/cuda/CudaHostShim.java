package dev.jburn.cuda;

import dev.jburn.kernels.HostBlock;

/**
 * What generated CUDA sources need to compile as host C++: the CUDA built-ins they use, written with
 * the C library, and the launch's geometry. {@link #THREAD}: one block of one thread, whose grid-stride
 * loop then covers every element. {@link #BLOCK}: one block of 256 threads run as fibers that meet at
 * every {@code __syncthreads()} ({@link HostBlock}), so a shared-memory tree runs as on the GPU; a
 * driver runs a launch with {@code jb_run_group([&](unsigned) { kernel(...); })} and the fiber running
 * is {@code threadIdx.x}.
 */
final class CudaHostShim {
    private CudaHostShim() {}

    private static final String BUILTINS = """
            #include <cmath>
            #include <math.h>
            #include <cstring>
            using std::isnan; using std::isinf;
            struct jb_dim3 { unsigned x, y, z; };
            #define __global__
            #define __device__
            #define __forceinline__ inline
            static inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
            static inline unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
            static inline long long __double_as_longlong(double d) { long long u; std::memcpy(&u, &d, 8); return u; }
            static inline double __longlong_as_double(long long u) { double d; std::memcpy(&d, &u, 8); return d; }
            static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
            static inline int __popc(unsigned x) { return __builtin_popcount(x); }
            static inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
            static inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
            static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
            """;

    /** One block of one thread. */
    static final String THREAD = BUILTINS + """
            static const jb_dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0}, gridDim = {1, 1, 1}, blockDim = {1, 1, 1};
            """;

    /** One block of 256 fibers; {@code __shared__} memory is static (blocks run one at a time). */
    static final String BLOCK = HostBlock.runtime(256) + BUILTINS + """
            #include <vector>
            static const jb_dim3 blockIdx = {0, 0, 0}, gridDim = {1, 1, 1}, blockDim = {256, 1, 1};
            #define threadIdx (jb_dim3{unsigned(jb_current), 0, 0})
            #define __syncthreads() jb_barrier()
            #define __shared__ static
            """;
}
