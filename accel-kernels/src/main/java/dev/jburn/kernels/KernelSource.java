package dev.jburn.kernels;

import dev.jburn.DType;

import java.util.List;

/**
 * Generated kernel source. Binding order: {@code inputTypes} (0..n-1), then the output (n). The
 * kernel takes the element count {@code n} (CUDA: a trailing {@code unsigned long long} argument;
 * GLSL: a {@code uint} push constant at offset 0; MSL: a {@code constant uint&} at buffer index
 * n + 1) and covers {@code i < n}: launch at least {@code n} threads in CUDA (it loops on a grid
 * stride), {@code ceil(n / 256)} workgroups in GLSL (x first, then y), or at least {@code n}
 * threads in MSL (one element each). Reductions take one workgroup (threadgroup) of 256 per output.
 *
 * @param entry      the entry point ({@code main} for GLSL, the kernel name for CUDA and MSL)
 * @param code       the whole compilable source
 * @param inputTypes the input buffers' dtypes
 * @param outType    the output buffer's dtype
 */
public record KernelSource(String entry, String code, List<DType> inputTypes, DType outType) {
    public KernelSource {
        inputTypes = List.copyOf(inputTypes);
    }
}
