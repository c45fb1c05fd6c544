package dev.jburn.cuda;

/** Whether a host C++ compiler ({@code g++}) runs here, for the tests that compile CUDA sources as C++. */
final class HostKernelTestSupport {
    private HostKernelTestSupport() {}

    static boolean hasCompiler() {
        try {
            Process p = new ProcessBuilder("g++", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
