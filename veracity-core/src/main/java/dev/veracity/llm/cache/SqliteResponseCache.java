package dev.veracity.llm.cache;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.llm.Completion;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.TokenIds;
import dev.veracity.llm.TokenLogprob;
import dev.veracity.llm.TokenUsage;
import dev.veracity.store.Sqlite;
import dev.veracity.text.Unicode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A persistent response cache in one SQLite file. Writes are synchronous (a killed run keeps every sample it
 * received) and cheap in WAL mode. One connection guarded by a lock: SQLite serialises writers anyway, and the
 * lock is held for a single-row statement.
 *
 * <p>What goes in is the client's choice ({@link ResponseCache}): only complete, non-empty samples. Texts are
 * stored as the {@link Completion} holds them, already repaired to well-formed Unicode, so a replay returns the
 * very string the live call returned. The nullable {@code unparseable} column holds the reason a method gave when
 * it could not parse the sample ({@link #markUnparseable}); a file written before the column existed gets it added
 * when opened for writing, and is read as having no marks when opened read-only.
 *
 * <p>The serving engine's token ids ({@link TokenIds}) are kept with their sample, as its logprobs are, so a replay
 * gives the training records a live call would (a request that asked for them is keyed apart from one that did not:
 * the backend's id says so). Entries from before the {@code token_ids} column are read as having none. The server's
 * response id is not kept: a replayed sample was not served this time.
 *
 * <p>The nullable {@code latency_us} column holds the latency of the request that produced the sample, so a call the
 * cache answers can be counted at the model time it took when it was made; entries from before the column (or stored
 * without a latency) read as having none.
 */
public final class SqliteResponseCache implements ResponseCache {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final Connection db;
    private final ReentrantLock lock = new ReentrantLock();
    private final PreparedStatement select;
    private final PreparedStatement insert;
    private final PreparedStatement mark;

    private SqliteResponseCache(Path file, boolean readOnly) {
        this.file = file;
        this.db = Sqlite.open(file, readOnly);
        try {
            if (!readOnly) {
                Sqlite.execute(db, "CREATE TABLE IF NOT EXISTS completions (key TEXT PRIMARY KEY, text TEXT NOT NULL,"
                        + " finish_reason TEXT NOT NULL, prompt_tokens INTEGER NOT NULL,"
                        + " completion_tokens INTEGER NOT NULL, exact INTEGER NOT NULL, logprobs TEXT,"
                        + " created_ms INTEGER NOT NULL, unparseable TEXT, token_ids TEXT, latency_us INTEGER)");
                if (!hasColumn("unparseable")) {
                    Sqlite.execute(db, "ALTER TABLE completions ADD COLUMN unparseable TEXT");
                }
                if (!hasColumn("token_ids")) {
                    Sqlite.execute(db, "ALTER TABLE completions ADD COLUMN token_ids TEXT");
                }
                if (!hasColumn("latency_us")) {
                    Sqlite.execute(db, "ALTER TABLE completions ADD COLUMN latency_us INTEGER");
                }
            }
            boolean marks = hasColumn("unparseable");
            boolean ids = hasColumn("token_ids");
            boolean latency = hasColumn("latency_us");
            this.select = db.prepareStatement("SELECT text, finish_reason, prompt_tokens, completion_tokens, exact,"
                    + " logprobs, " + (marks ? "unparseable" : "NULL") + ", " + (ids ? "token_ids" : "NULL") + ", "
                    + (latency ? "latency_us" : "NULL") + " FROM completions WHERE key = ?");
            this.insert = readOnly ? null : db.prepareStatement("INSERT OR REPLACE INTO completions (key, text,"
                    + " finish_reason, prompt_tokens, completion_tokens, exact, logprobs, created_ms, unparseable,"
                    + " token_ids, latency_us) VALUES (?,?,?,?,?,?,?,?,NULL,?,?)");
            this.mark = readOnly ? null : db.prepareStatement("UPDATE completions SET unparseable = ? WHERE key = ?");
        } catch (SQLException e) {
            throw new IllegalStateException("cache " + file + " is not a Veracity response cache: " + e.getMessage(), e);
        }
    }

    private boolean hasColumn(String name) throws SQLException {
        try (PreparedStatement ps = db.prepareStatement("PRAGMA table_info(completions)");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (name.equalsIgnoreCase(rs.getString("name"))) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Opens or creates a cache file for reading and writing. */
    public static SqliteResponseCache open(Path file) {
        return new SqliteResponseCache(file, false);
    }

    /** Opens an existing cache file without write access. */
    public static SqliteResponseCache openReadOnly(Path file) {
        return new SqliteResponseCache(file, true);
    }

    public Path file() {
        return file;
    }

    @Override
    public Optional<Entry> get(String key) {
        lock.lock();
        try {
            select.setString(1, key);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                TokenUsage usage = new TokenUsage(rs.getInt(3), rs.getInt(4), rs.getInt(5) != 0);
                Completion c = new Completion(0, rs.getString(1), FinishReason.valueOf(rs.getString(2)), usage,
                        Optional.ofNullable(rs.getString(6)).map(SqliteResponseCache::readLogprobs),
                        Optional.ofNullable(rs.getString(8)).map(SqliteResponseCache::readTokenIds), null);
                long latency = rs.getLong(9);
                OptionalLong took = rs.wasNull() || latency < 0 ? OptionalLong.empty() : OptionalLong.of(latency);
                return Optional.of(new Entry(c, Optional.ofNullable(rs.getString(7)), took));
            }
        } catch (SQLException | IllegalArgumentException e) {
            throw new IllegalStateException("reading the response cache " + file + " failed: " + e.getMessage()
                    + " (delete the file to rebuild the cache)", e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void put(String key, Completion c, OptionalLong latencyMicros) {
        if (insert == null) {
            throw new IllegalStateException("cache " + file + " is open read-only");
        }
        lock.lock();
        try {
            insert.setString(1, key);
            insert.setString(2, c.text());
            insert.setString(3, c.finishReason().name());
            insert.setInt(4, c.usage().promptTokens());
            insert.setInt(5, c.usage().completionTokens());
            insert.setInt(6, c.usage().exact() ? 1 : 0);
            insert.setString(7, c.logprobs().map(SqliteResponseCache::writeLogprobs).orElse(null));
            insert.setLong(8, System.currentTimeMillis());
            insert.setString(9, c.tokenIds().map(SqliteResponseCache::writeTokenIds).orElse(null));
            if (latencyMicros.isPresent()) {
                insert.setLong(10, latencyMicros.getAsLong());
            } else {
                insert.setNull(10, java.sql.Types.INTEGER);
            }
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("writing the response cache " + file + " failed: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void markUnparseable(String key, String reason) {
        if (mark == null) {
            throw new IllegalStateException("cache " + file + " is open read-only");
        }
        lock.lock();
        try {
            // Never null: an empty reason still marks the entry.
            mark.setString(1, reason == null ? "" : Unicode.repair(reason));
            mark.setString(2, key);
            mark.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("marking an entry of the response cache " + file + " failed: "
                    + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /** Number of stored samples. */
    public long size() {
        lock.lock();
        try (PreparedStatement ps = db.prepareStatement("SELECT COUNT(*) FROM completions");
             ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            throw new IllegalStateException("counting the response cache " + file + ": " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            db.close();
        } catch (SQLException e) {
            throw new IllegalStateException("closing the response cache " + file + ": " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    private static String writeLogprobs(List<TokenLogprob> tokens) {
        ArrayNode a = JSON.createArrayNode();
        for (TokenLogprob t : tokens) {
            var o = a.addObject().put("t", t.token()).put("p", t.logprob());
            ArrayNode top = o.putArray("top");
            t.top().forEach(alt -> top.addObject().put("t", alt.token()).put("p", alt.logprob()));
        }
        return a.toString();
    }

    private static String writeTokenIds(TokenIds ids) {
        ObjectNode o = JSON.createObjectNode();
        ids.prompt().forEach(o.putArray("prompt")::add);
        ids.response().forEach(o.putArray("response")::add);
        return o.toString();
    }

    private static TokenIds readTokenIds(String json) {
        try {
            JsonNode o = JSON.readTree(json);
            return new TokenIds(ints(o.path("prompt")), ints(o.path("response")));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("corrupt token ids in cache: " + e.getMessage(), e);
        }
    }

    private static List<Integer> ints(JsonNode a) {
        if (!a.isArray()) {
            throw new IllegalArgumentException("corrupt token ids in cache: not a list");
        }
        List<Integer> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asInt()));
        return out;
    }

    private static List<TokenLogprob> readLogprobs(String json) {
        try {
            List<TokenLogprob> out = new ArrayList<>();
            for (JsonNode t : JSON.readTree(json)) {
                List<TokenLogprob.Alternative> top = new ArrayList<>();
                t.path("top").forEach(a -> top.add(new TokenLogprob.Alternative(a.path("t").asText(), a.path("p").asDouble())));
                out.add(new TokenLogprob(t.path("t").asText(), t.path("p").asDouble(), top));
            }
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("corrupt logprobs in cache: " + e.getMessage(), e);
        }
    }
}
