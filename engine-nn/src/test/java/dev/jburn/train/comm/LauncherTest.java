package dev.jburn.train.comm;

import dev.jburn.dist.*;

import dev.jburn.JBurnException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The launcher gives every child the rendezvous variables and keeps NVLink multicast off whatever the parent says. */
class LauncherTest {
    /** A child that writes the variables it sees to {@code DIR/env-RANK.txt}. */
    public static final class EnvProbe {
        public static void main(String[] args) throws Exception {
            StringBuilder b = new StringBuilder();
            for (String k : List.of("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT", "NCCL_NVLS_ENABLE",
                    "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS", "NCCL_HOSTID", "JBURN_CUDA_DEVICE")) {
                b.append(k).append('=').append(System.getenv(k)).append('\n');
            }
            Files.writeString(Path.of(args[0], "env-" + System.getenv("RANK") + ".txt"), b);
            System.exit(Integer.parseInt(System.getenv("RANK")) == 1 && args.length > 1 ? 3 : 0);
        }
    }

    @Test
    void childEnvironmentOverridesAParentThatTurnsMulticastOn() {
        Map<String, String> parent = Map.of("NCCL_NVLS_ENABLE", "1", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "0", "NVSHMEM_DISABLE_NVLS", "0", "PATH", "/bin");
        Launcher l = Launcher.nproc(4).master("10.0.0.1", 29500).environment(Map.of("NCCL_NVLS_ENABLE", "1", "JBURN_CUDA_DEVICE", "0"));
        Map<String, String> env = l.childEnvironment(parent, 2, 29500);
        assertEquals("0", env.get("NCCL_NVLS_ENABLE"));
        assertEquals("1", env.get("TORCH_SYMM_MEM_DISABLE_MULTICAST"));
        assertEquals("1", env.get("NVSHMEM_DISABLE_NVLS"));
        assertEquals("2", env.get("RANK"));
        assertEquals("4", env.get("WORLD_SIZE"));
        assertEquals("10.0.0.1", env.get("MASTER_ADDR"));
        assertEquals("0", env.get("JBURN_CUDA_DEVICE"), "the caller's device choice wins over the local rank");
        assertEquals("/bin", env.get("PATH"));
        Map<String, String> node1 = Launcher.nproc(4).nodes(2, 1).master("10.0.0.1", 29500).childEnvironment(Map.of(), 2, 29500);
        assertEquals(List.of("6", "2", "8", "2"), List.of(node1.get("RANK"), node1.get("LOCAL_RANK"), node1.get("WORLD_SIZE"), node1.get("JBURN_CUDA_DEVICE")));
        assertThrows(JBurnException.class, () -> Launcher.nproc(2).nodes(2, 2));
        assertThrows(JBurnException.class, () -> Launcher.nproc(1).nodes(2, 0).start(List.of("true")), "several nodes need a fixed port");
    }

    @Test
    void realChildProcessesSeeTheVariablesAndAFailureIsReported(@TempDir Path dir) throws Exception {
        Launcher l = Launcher.nproc(2).environment(Map.of("NCCL_NVLS_ENABLE", "1", "NVSHMEM_DISABLE_NVLS", "0", "NCCL_HOSTID", "host-{rank}"));
        assertEquals(0, l.run(Launcher.java(EnvProbe.class.getName(), dir.toString())));
        for (int r = 0; r < 2; r++) {
            String env = Files.readString(dir.resolve("env-" + r + ".txt"));
            assertTrue(env.contains("NCCL_NVLS_ENABLE=0\n"), env);
            assertTrue(env.contains("TORCH_SYMM_MEM_DISABLE_MULTICAST=1\n"), env);
            assertTrue(env.contains("NVSHMEM_DISABLE_NVLS=1\n"), env);
            assertTrue(env.contains("RANK=" + r + "\n") && env.contains("WORLD_SIZE=2\n") && env.contains("MASTER_ADDR=127.0.0.1\n"), env);
            assertTrue(env.contains("NCCL_HOSTID=host-" + r + "\n"), env);
            assertTrue(env.contains("JBURN_CUDA_DEVICE=" + r + "\n"), env);
        }
        assertEquals(3, l.run(Launcher.java(EnvProbe.class.getName(), dir.toString(), "fail-rank-1")), "rank 1's exit code");
        assertThrows(JBurnException.class, () -> Launcher.nproc(0));
        assertThrows(JBurnException.class, () -> l.run(List.of()));
    }

    @Test
    void rendezvousReadsTheEnvironmentAndNamesWhatIsMissing() {
        JBurnException e = assertThrows(JBurnException.class, () -> Rendezvous.fromEnvironment(Map.of("RANK", "0", "WORLD_SIZE", "2")));
        assertTrue(e.getMessage().contains("MASTER_ADDR"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> Rendezvous.fromEnvironment(Map.of("RANK", "x", "WORLD_SIZE", "2")));
        assertTrue(e.getMessage().contains("RANK") && e.getMessage().contains("'x'"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> Rendezvous.fromEnvironment(Map.of("RANK", "2", "WORLD_SIZE", "2", "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "1")));
        assertTrue(e.getMessage().contains("outside"), e.getMessage());
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        } catch (java.io.IOException x) {
            throw new AssertionError(x);
        }
        try (Rendezvous one = Rendezvous.fromEnvironment(Map.of("RANK", "0", "WORLD_SIZE", "1", "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", Integer.toString(port)))) {
            assertEquals(0, one.rank());
            assertEquals(1, one.size());
            one.store().set("k", new byte[] {1});
        }
    }
}
