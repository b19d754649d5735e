package dev.veracity.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.config.Secrets;
import dev.veracity.store.Sqlite;
import dev.veracity.text.Unicode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Traces in SQLite. {@link #record} only enqueues: a background writer inserts batches in one transaction,
 * so tracing adds microseconds to a call, not a disk write. {@link #flush()} waits until everything recorded
 * is in the file; {@link #close()} flushes and closes it.
 *
 * <p>Every string is written as {@link Unicode#repair} makes it: model outputs already are (they pass through
 * {@link dev.veracity.llm.Completion}), but prompts and ids come from datasets, where a JSON {@code "\ud800"}
 * escape decodes into a lone surrogate. Repaired here, such text is stored and exported as U+FFFD instead of
 * SQLite's silent {@code ?}, and it cannot make a strict UTF-8 writer of the export fail.
 */
public final class TraceStore implements TraceSink {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };
    private static final String COLUMNS = "call_id, run_id, question_id, method, role, step, backend, model, prompt,"
            + " settings, outputs, finish_reasons, prompt_tokens, completion_tokens, cached_tokens, submitted_us,"
            + " started_us, ended_us, cache_hit, attempts, retries, error, samples, cached_samples,"
            + " cached_prompt_tokens, cached_completion_tokens, cached_latency_us, endpoint";
    /**
     * Columns added after the first release: a new store is made with them, a store written before them gets them when
     * opened, NULL in old rows.
     */
    private static final List<String> ADDED = List.of("samples INTEGER", "cached_samples INTEGER",
            "cached_prompt_tokens INTEGER", "cached_completion_tokens INTEGER", "cached_latency_us INTEGER",
            "endpoint TEXT");

    private final Path file;
    private final Connection db;
    private final ReentrantLock dbLock = new ReentrantLock();
    private final LinkedBlockingQueue<CallRecord> queue = new LinkedBlockingQueue<>();
    private final Object progress = new Object();
    private long enqueued;
    private long written;
    private volatile boolean closed;
    private volatile RuntimeException writeFailure;
    private final Thread writer;

    private TraceStore(Path file) {
        this.file = file;
        this.db = Sqlite.open(file, false);
        Sqlite.execute(db, "CREATE TABLE IF NOT EXISTS calls (call_id TEXT PRIMARY KEY, run_id TEXT NOT NULL,"
                        + " question_id TEXT NOT NULL, method TEXT NOT NULL, role TEXT NOT NULL, step INTEGER NOT NULL,"
                        + " backend TEXT, model TEXT, prompt TEXT, settings TEXT, outputs TEXT, finish_reasons TEXT,"
                        + " prompt_tokens INTEGER, completion_tokens INTEGER, cached_tokens INTEGER,"
                        + " submitted_us INTEGER, started_us INTEGER, ended_us INTEGER, cache_hit INTEGER,"
                        + " attempts INTEGER, retries INTEGER, error TEXT, " + String.join(", ", ADDED) + ")",
                "CREATE INDEX IF NOT EXISTS calls_by_question ON calls(run_id, question_id, submitted_us)");
        addMissingColumns();
        this.writer = Thread.ofPlatform().daemon().name("veracity-trace-writer").start(this::writeLoop);
    }

    private void addMissingColumns() {
        List<String> have = new ArrayList<>();
        try (PreparedStatement ps = db.prepareStatement("PRAGMA table_info(calls)"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                have.add(rs.getString("name").toLowerCase(java.util.Locale.ROOT));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("reading the columns of trace store " + file + ": " + e.getMessage(), e);
        }
        for (String column : ADDED) {
            if (!have.contains(column.substring(0, column.indexOf(' ')))) {
                Sqlite.execute(db, "ALTER TABLE calls ADD COLUMN " + column);
            }
        }
    }

    /** Opens or creates the trace database at {@code file}. */
    public static TraceStore open(Path file) {
        return new TraceStore(file);
    }

    public Path file() {
        return file;
    }

    @Override
    public void record(CallRecord record) {
        if (closed) {
            throw new IllegalStateException("trace store " + file + " is closed");
        }
        synchronized (progress) {
            enqueued++;
        }
        queue.add(record);
    }

    @Override
    public void flush() {
        synchronized (progress) {
            long target = enqueued;
            while (written < target && writeFailure == null) {
                try {
                    progress.wait(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        if (writeFailure != null) {
            throw writeFailure;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        flush();
        closed = true;
        writer.interrupt();
        try {
            writer.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        dbLock.lock();
        try {
            db.close();
        } catch (SQLException e) {
            throw new IllegalStateException("closing trace store " + file + ": " + e.getMessage(), e);
        } finally {
            dbLock.unlock();
        }
    }

    private void writeLoop() {
        List<CallRecord> batch = new ArrayList<>();
        while (!closed || !queue.isEmpty()) {
            try {
                CallRecord first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, 1023);
                insert(batch);
            } catch (InterruptedException e) {
                if (closed && queue.isEmpty()) {
                    return;
                }
            } catch (RuntimeException e) {
                writeFailure = e;
            }
            synchronized (progress) {
                written += batch.size();
                progress.notifyAll();
            }
            batch.clear();
        }
    }

    private void insert(List<CallRecord> batch) {
        dbLock.lock();
        try (PreparedStatement ps = db.prepareStatement("INSERT OR REPLACE INTO calls (" + COLUMNS
                + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            db.setAutoCommit(false);
            for (CallRecord r : batch) {
                int i = 1;
                ps.setString(i++, text(r.callId()));
                ps.setString(i++, text(r.context().runId()));
                ps.setString(i++, text(r.context().questionId()));
                ps.setString(i++, text(r.context().method()));
                ps.setString(i++, text(r.context().role()));
                ps.setInt(i++, r.context().step());
                ps.setString(i++, text(r.backendId()));
                ps.setString(i++, text(r.model()));
                ps.setString(i++, text(Secrets.redact(r.prompt())));
                ps.setString(i++, text(r.settings()));
                ps.setString(i++, text(Secrets.redact(json(r.outputs()))));
                ps.setString(i++, json(r.finishReasons()));
                ps.setInt(i++, r.promptTokens());
                ps.setInt(i++, r.completionTokens());
                ps.setInt(i++, r.cachedTokens()); // kept for readers of the first schema
                ps.setLong(i++, r.submittedMicros());
                ps.setLong(i++, r.startedMicros());
                ps.setLong(i++, r.endedMicros());
                ps.setInt(i++, r.cacheHit() ? 1 : 0);
                ps.setInt(i++, r.attempts());
                ps.setInt(i++, r.retries());
                ps.setString(i++, text(Secrets.redact(r.error())));
                ps.setInt(i++, r.samples());
                ps.setInt(i++, r.cachedSamples());
                ps.setInt(i++, r.cachedPromptTokens());
                ps.setInt(i++, r.cachedCompletionTokens());
                ps.setLong(i++, r.cachedLatencyMicros());
                ps.setString(i, r.endpoint());
                ps.addBatch();
            }
            ps.executeBatch();
            db.commit();
        } catch (SQLException e) {
            throw new IllegalStateException("writing traces to " + file + " failed: " + e.getMessage(), e);
        } finally {
            try {
                db.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the next batch reports a broken connection
            }
            dbLock.unlock();
        }
    }

    /** The calls of a run, in submission order. Flushes first. */
    public List<CallRecord> calls(String runId) {
        return query("SELECT " + COLUMNS + " FROM calls WHERE run_id = ? ORDER BY submitted_us", runId);
    }

    /** The calls of one question of a run, in submission order. Flushes first. */
    public List<CallRecord> calls(String runId, String questionId) {
        return query("SELECT " + COLUMNS + " FROM calls WHERE run_id = ? AND question_id = ? ORDER BY submitted_us",
                runId, questionId);
    }

    /** The ids of the runs in the store, oldest first. */
    public List<String> runs() {
        flush();
        dbLock.lock();
        try (PreparedStatement ps = db.prepareStatement(
                "SELECT run_id FROM calls GROUP BY run_id ORDER BY MIN(submitted_us)");
             ResultSet rs = ps.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("reading runs from " + file + ": " + e.getMessage(), e);
        } finally {
            dbLock.unlock();
        }
    }

    /** Writes a run's calls as JSON lines, one object per call, in submission order. Returns the count. */
    public int exportJsonl(String runId, Writer out) {
        int n = 0;
        try {
            for (CallRecord r : calls(runId)) {
                out.write(JSON.writeValueAsString(toJson(r)));
                out.write('\n');
                n++;
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("exporting traces of run " + runId + ": " + e.getMessage(), e);
        }
        return n;
    }

    /** A call as a JSON object (the JSONL export format). */
    public static ObjectNode toJson(CallRecord r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("call_id", text(r.callId()));
        o.put("run", text(r.context().runId()));
        o.put("question", text(r.context().questionId()));
        o.put("method", text(r.context().method()));
        o.put("role", text(r.context().role()));
        o.put("step", r.context().step());
        o.put("backend", text(r.backendId()));
        o.put("model", text(r.model()));
        o.put("prompt", text(Secrets.redact(r.prompt())));
        o.put("settings", text(r.settings()));
        r.outputs().forEach(s -> o.withArray("outputs").add(text(Secrets.redact(s))));
        r.finishReasons().forEach(s -> o.withArray("finish_reasons").add(s));
        o.put("prompt_tokens", r.promptTokens());
        o.put("completion_tokens", r.completionTokens());
        o.put("samples", r.samples());
        o.put("cached_samples", r.cachedSamples());
        o.put("cached_tokens", r.cachedTokens());
        o.put("cached_prompt_tokens", r.cachedPromptTokens());
        o.put("cached_completion_tokens", r.cachedCompletionTokens());
        if (r.cachedSamples() > 0 && r.cachedLatencyMicros() >= 0) {
            o.put("cached_latency_ms", r.cachedLatencyMicros() / 1000.0);
        }
        o.put("submitted_us", r.submittedMicros());
        o.put("started_us", r.startedMicros());
        o.put("ended_us", r.endedMicros());
        o.put("latency_ms", r.latencyMicros() / 1000.0);
        o.put("queue_ms", r.queueMicros() / 1000.0);
        o.put("cache_hit", r.cacheHit());
        o.put("attempts", r.attempts());
        o.put("retries", r.retries());
        if (r.error() != null) {
            o.put("error", text(Secrets.redact(r.error())));
        }
        if (r.endpoint() != null) {
            o.put("endpoint", r.endpoint());
        }
        return o;
    }

    private List<CallRecord> query(String sql, String... args) {
        List<CallRecord> out = new ArrayList<>();
        each(sql, out::add, args);
        return out;
    }

    /**
     * Each call of a run, in submission order, one in memory at a time (a large run's calls copied elsewhere, as
     * {@code merge} copies its shards'). Flushes first; {@code each} must not use this store.
     */
    public void forEachCall(String runId, java.util.function.Consumer<CallRecord> each) {
        each("SELECT " + COLUMNS + " FROM calls WHERE run_id = ? ORDER BY submitted_us", each, runId);
    }

    private void each(String sql, java.util.function.Consumer<CallRecord> each, String... args) {
        flush();
        dbLock.lock();
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setString(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    each.accept(read(rs));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("reading traces from " + file + ": " + e.getMessage(), e);
        } finally {
            dbLock.unlock();
        }
    }

    /**
     * A row as a record. A row written before the sample and cache columns existed reads its samples from the
     * settings' n (else its outputs), every sample as cached when the call was a cache hit, and the cache's tokens
     * and latency as unknown: no tokens, latency -1.
     */
    private static CallRecord read(ResultSet rs) throws SQLException {
        CallContext ctx = new CallContext(rs.getString("run_id"), rs.getString("question_id"),
                rs.getString("method"), rs.getString("role"), rs.getInt("step"));
        List<String> outputs = strings(rs.getString("outputs"));
        String settings = rs.getString("settings");
        boolean hit = rs.getInt("cache_hit") != 0;
        int samples = rs.getInt("samples");
        boolean old = rs.wasNull();
        if (old) {
            samples = samplesOf(settings, outputs);
        }
        int cachedSamples = old ? (hit ? samples : 0) : rs.getInt("cached_samples");
        long cachedLatency = old ? (hit ? -1 : 0) : rs.getLong("cached_latency_us");
        return new CallRecord(rs.getString("call_id"), ctx, rs.getString("backend"), rs.getString("model"),
                rs.getString("prompt"), settings, outputs, strings(rs.getString("finish_reasons")),
                rs.getInt("prompt_tokens"), rs.getInt("completion_tokens"), samples, cachedSamples,
                rs.getInt("cached_prompt_tokens"), rs.getInt("cached_completion_tokens"), cachedLatency,
                rs.getLong("submitted_us"), rs.getLong("started_us"), rs.getLong("ended_us"), hit,
                rs.getInt("attempts"), rs.getInt("retries"), rs.getString("error"), rs.getString("endpoint"));
    }

    /** A call's n from its settings JSON, else its outputs (at least 1). */
    private static int samplesOf(String settings, List<String> outputs) {
        try {
            int n = settings == null ? 0 : JSON.readTree(settings).path("n").asInt(0);
            if (n > 0) {
                return n;
            }
        } catch (JsonProcessingException e) {
            // not JSON: the outputs say
        }
        return Math.max(1, outputs.size());
    }

    /** A string as the store writes it: well-formed Unicode (see the class comment). */
    private static String text(String s) {
        return Unicode.repair(s);
    }

    private static String json(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> strings(String json) {
        if (json == null || json.isEmpty()) {
            return List.of();
        }
        try {
            return JSON.readValue(json, STRINGS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt trace row (outputs is not a JSON array): " + e.getMessage(), e);
        }
    }
}
