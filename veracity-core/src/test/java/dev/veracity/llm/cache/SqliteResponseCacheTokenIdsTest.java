package dev.veracity.llm.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.Completion;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.TokenIds;
import dev.veracity.llm.TokenLogprob;
import dev.veracity.llm.TokenUsage;
import dev.veracity.store.Sqlite;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cache keeps a sample's engine token ids as it keeps its logprobs; files from before the column still open. */
class SqliteResponseCacheTokenIdsTest {

    @TempDir
    Path dir;

    @Test
    void tokenIdsAndLogprobsSurviveTheCacheButTheResponseIdDoesNot() {
        Completion live = new Completion(2, "Paris.", FinishReason.STOP, TokenUsage.of(5, 2),
                Optional.of(List.of(new TokenLogprob("Paris", -0.1, List.of()), new TokenLogprob(".", -0.2, List.of()))),
                Optional.of(new TokenIds(List.of(1, 2, 3, 4, 5), List.of(40, 41))), "chatcmpl-live");
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            cache.put("k", live);
            Completion replay = cache.get("k").orElseThrow().completion();
            assertThat(replay.tokenIds()).contains(new TokenIds(List.of(1, 2, 3, 4, 5), List.of(40, 41)));
            assertThat(replay.logprobs().orElseThrow()).extracting(TokenLogprob::logprob).containsExactly(-0.1, -0.2);
            assertThat(replay.responseId()).isNull();
            cache.put("plain", Completion.of(0, "x", FinishReason.STOP, TokenUsage.of(1, 1)));
            assertThat(cache.get("plain").orElseThrow().completion().tokenIds()).isEmpty();
        }
    }

    @Test
    void aCacheFileFromBeforeTheColumnIsReadWithoutIdsAndGainsTheColumnWhenOpenedForWriting() {
        Path file = dir.resolve("old.db");
        try (Connection db = Sqlite.open(file, false)) {
            Sqlite.execute(db, "CREATE TABLE completions (key TEXT PRIMARY KEY, text TEXT NOT NULL, finish_reason TEXT"
                    + " NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, exact INTEGER NOT"
                    + " NULL, logprobs TEXT, created_ms INTEGER NOT NULL, unparseable TEXT)",
                    "INSERT INTO completions VALUES ('k', 'old', 'STOP', 1, 1, 1, NULL, 0, NULL)");
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
        try (SqliteResponseCache ro = SqliteResponseCache.openReadOnly(file)) {
            assertThat(ro.get("k").orElseThrow().completion().tokenIds()).isEmpty();
        }
        try (SqliteResponseCache rw = SqliteResponseCache.open(file)) {
            assertThat(rw.get("k").orElseThrow().completion().text()).isEqualTo("old");
            rw.put("n", new Completion(0, "new", FinishReason.STOP, TokenUsage.of(1, 1), Optional.empty(),
                    Optional.of(new TokenIds(List.of(9), List.of(10))), null));
            assertThat(rw.get("n").orElseThrow().completion().tokenIds().orElseThrow().response()).containsExactly(10);
        }
    }
}
