package dev.jburn.kernels;

/**
 * The C++ runtime that runs one GPU block (a CUDA block, a Metal threadgroup) of generated kernel
 * code on the CPU, for the tests that compile the emitted sources as host C++: the block's threads
 * are fibers ({@code ucontext}) taken in turns by one host thread. A barrier hands control back, and
 * a turn ends when every fiber has reached the barrier or returned, so no fiber passes a barrier
 * before all have reached it, as on the GPU, without the cost of an OS thread per GPU thread (creating
 * 256 threads per launch, and compiling {@code std::thread}/{@code std::barrier} for every driver, made
 * most of those tests' time). A block where some fibers return while others wait at a barrier
 * (undefined behaviour on a GPU) is recorded and reported by {@code jb_divergent_barrier()}.
 *
 * <p>What the text defines: {@code jb_barrier()} (what {@code __syncthreads} or
 * {@code threadgroup_barrier} call), {@code jb_current} (the running fiber's thread index),
 * {@code jb_run_group(body)} (runs {@code body(t)} for every thread {@code t} of one block; {@code body}
 * is any callable, a lambda with captures included) and {@code extern "C" int jb_divergent_barrier()}.
 * It includes only {@code <ucontext.h>}: {@code <functional>} tripled the compile of a one-kernel unit.
 * <pre>{@code
 * String cpp = HostBlock.runtime(256) + "#define __syncthreads() jb_barrier()\n" + kernels + drivers;
 * }</pre>
 */
public final class HostBlock {
    private HostBlock() {}

    /** The runtime for blocks of {@code threads} threads, each fiber with a 64 KiB stack. */
    public static String runtime(int threads) {
        if (threads < 1) throw new IllegalArgumentException("a block has at least one thread: " + threads);
        return RUNTIME.replace("$N", Integer.toString(threads));
    }

    private static final String RUNTIME = """
            #include <ucontext.h>
            static ucontext_t jb_host, jb_fiber[$N];
            static char jb_stack[$N][64 * 1024];
            static bool jb_returned[$N];
            static int jb_current;
            static void (*jb_body)(void*, unsigned);
            static void* jb_body_context;
            static bool jb_divergent;
            static void jb_barrier() { swapcontext(&jb_fiber[jb_current], &jb_host); }
            static void jb_start(int t) { jb_body(jb_body_context, unsigned(t)); jb_returned[t] = true; }
            static void jb_run_block(void (*body)(void*, unsigned), void* context) {
              jb_body = body;
              jb_body_context = context;
              for (int t = 0; t < $N; t++) {
                getcontext(&jb_fiber[t]);
                jb_fiber[t].uc_stack.ss_sp = jb_stack[t];
                jb_fiber[t].uc_stack.ss_size = sizeof jb_stack[t];
                jb_fiber[t].uc_link = &jb_host;
                makecontext(&jb_fiber[t], (void (*)()) jb_start, 1, t);
                jb_returned[t] = false;
              }
              for (int live = $N; live > 0;) {
                int waiting = 0;
                for (int t = 0; t < $N; t++) {
                  if (jb_returned[t]) continue;
                  jb_current = t;
                  swapcontext(&jb_host, &jb_fiber[t]);
                  if (!jb_returned[t]) waiting++;
                }
                if (waiting != 0 && waiting != live) jb_divergent = true;
                live = waiting;
              }
            }
            template <class Body> static void jb_run_group(Body body) {
              jb_run_block([](void* b, unsigned t) { (*static_cast<Body*>(b))(t); }, &body);
            }
            extern "C" int jb_divergent_barrier() { return jb_divergent ? 1 : 0; }
            """;
}
