package dev.jburn.bench.peer;

/** A runtime cannot run a workload (or at all); the message is the reason shown in the table. */
public final class PeerUnavailable extends Exception {
    public PeerUnavailable(String reason) { super(reason); }

    public PeerUnavailable(String reason, Throwable cause) { super(reason, cause); }
}
