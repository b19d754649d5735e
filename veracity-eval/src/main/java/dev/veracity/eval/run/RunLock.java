package dev.veracity.eval.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One eval at a time in a run folder: an exclusive lock ({@link FileChannel#tryLock()}) on its {@code run.lock}, held
 * for the whole run. Two evals appending to one {@code results.jsonl} would each cut the other's last line as torn
 * and die on a corrupt line; the second is refused at once instead, naming the holder (its pid and start time, which
 * the holder writes into the file). The lock is the operating system's, so a killed holder leaves none behind; the
 * file stays, as Lucene's {@code write.lock} does.
 *
 * <p>A process holds each folder's lock once: POSIX releases all of a process's locks on a file when any channel of
 * it to that file closes, so this process's own locks are looked up in memory, never probed with a second channel.
 */
public final class RunLock implements AutoCloseable {

    /** The lock file in a run folder. */
    public static final String FILE = "run.lock";

    /** The folders this process holds, with what their lock file says. */
    private static final Map<Path, String> HELD = new ConcurrentHashMap<>();

    private final Path dir;
    private final FileChannel channel;
    private final FileLock lock;

    private RunLock(Path dir, FileChannel channel, FileLock lock) {
        this.dir = dir;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the folder's lock, creating the folder and its lock file, and records this process in it.
     *
     * @throws IllegalStateException when another eval holds it, naming the holder
     */
    public static RunLock acquire(Path dir) {
        Path key = key(dir);
        String holder = "pid " + ProcessHandle.current().pid() + ", started " + Instant.now();
        if (HELD.putIfAbsent(key, holder) != null) {
            throw inUse(dir, HELD.get(key));
        }
        FileChannel channel = null;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                String other = read(channel);
                channel.close();
                throw inUse(dir, other);
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((holder + "\n").getBytes(StandardCharsets.UTF_8)), 0);
            return new RunLock(key, channel, lock);
        } catch (IOException e) {
            HELD.remove(key);
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock " + dir.resolve(FILE) + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            HELD.remove(key);
            closeQuietly(channel);
            throw e;
        }
    }

    /**
     * Refuses at once a folder another eval holds, creating nothing (a folder that does not exist is free). Taking the
     * lock afterwards ({@link #acquire}) can still find it taken by an eval that started in between.
     *
     * @throws IllegalStateException when another eval holds it, naming the holder
     */
    public static void requireFree(Path dir) {
        Path key = key(dir);
        String mine = HELD.get(key);
        if (mine != null) {
            throw inUse(dir, mine);
        }
        try (FileChannel channel = FileChannel.open(dir.resolve(FILE), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            FileLock probe = channel.tryLock();
            if (probe == null) {
                throw inUse(dir, read(channel));
            }
            probe.release();
        } catch (NoSuchFileException e) {
            // never locked: free
        } catch (OverlappingFileLockException e) {
            throw inUse(dir, HELD.getOrDefault(key, "this process"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }

    /** Releases the lock (the file stays). */
    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release " + dir.resolve(FILE) + ": " + e.getMessage(), e);
        } finally {
            HELD.remove(dir);
        }
    }

    private static IllegalStateException inUse(Path dir, String holder) {
        return new IllegalStateException(dir + " is in use by another eval (" + (holder.isBlank() ? "holder unknown"
                : holder.strip()) + "); wait for it to finish, or use another output folder");
    }

    private static String read(FileChannel channel) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(256);
        channel.read(buf, 0);
        return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).lines().findFirst().orElse("");
    }

    private static Path key(Path dir) {
        return dir.toAbsolutePath().normalize();
    }

    private static void closeQuietly(FileChannel c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // already failing
            }
        }
    }
}
