package dev.jburn.kernels;

import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * One primitive run on the cpu engine for a device engine: device operands are copied to host
 * buffers, the host result is copied back into device memory, and every host buffer is released
 * when the call closes (also when the host kernel throws).
 */
final class HostCall implements AutoCloseable {
    private final Backend device;
    private final Backend host;
    private final List<Buffer> held = new ArrayList<>();

    HostCall(Backend device, Backend host) {
        this.device = device;
        this.host = host;
    }

    /** {@code x} copied into a host buffer. */
    Operand in(Operand x) {
        long bytes = x.dtype().byteSize(x.size());
        Buffer h;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(Math.max(bytes, 1));
            if (bytes > 0) device.download(x.buffer(), 0, staging.asSlice(0, bytes));
            h = host.upload(staging.asSlice(0, bytes));
        }
        held.add(h);
        return new Operand(h, x.dtype(), x.shape());
    }

    List<Operand> in(List<Operand> xs) {
        List<Operand> out = new ArrayList<>(xs.size());
        for (Operand x : xs) out.add(in(x));
        return out;
    }

    /** The host result {@code h} copied into device memory; {@code h} is released. */
    Buffer out(Buffer h) {
        held.add(h);
        return outHeld(h);
    }

    List<Buffer> out(List<Buffer> hs) {
        held.addAll(hs);
        List<Buffer> out = new ArrayList<>(hs.size());
        try {
            for (Buffer h : hs) out.add(outHeld(h));
        } catch (RuntimeException e) {
            for (Buffer b : out) b.release();
            throw e;
        }
        return out;
    }

    private Buffer outHeld(Buffer h) {
        long bytes = h.byteSize();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
            if (bytes > 0) host.download(h, 0, staging);
            return device.upload(staging);
        }
    }

    @Override
    public void close() {
        for (Buffer b : held) b.release();
        held.clear();
    }
}
