package dev.jburn.dist;

import dev.jburn.JBurnException;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** {@link Store#inMemory()}: a map under a lock, with a condition that {@link #get} waits on. Also {@link TcpStore}'s server side. */
final class MemoryStore implements Store {
    private final Map<String, byte[]> values = new HashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();

    @Override
    public void set(String key, byte[] value) {
        if (key == null || value == null) throw new JBurnException("store", "key and value are required");
        lock.lock();
        try {
            values.put(key, value.clone());
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public byte[] get(String key, Duration timeout) {
        if (key == null || timeout == null) throw new JBurnException("store", "key and timeout are required");
        long left = timeout.toNanos();
        lock.lock();
        try {
            byte[] v;
            while ((v = values.get(key)) == null) {
                if (left <= 0) throw new JBurnException("store", "key '" + key + "' not set within " + timeout);
                left = changed.awaitNanos(left);
            }
            return v.clone();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JBurnException("store", "interrupted while waiting for key '" + key + "'");
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void delete(String key) {
        lock.lock();
        try {
            values.remove(key);
        } finally {
            lock.unlock();
        }
    }

    /** Number of keys held (tests check that communicators clean up after themselves). */
    int keyCount() {
        lock.lock();
        try {
            return values.size();
        } finally {
            lock.unlock();
        }
    }

    @Override public void close() {}

}
