package dev.veracity.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.concurrent.Parallel;
import dev.veracity.config.ApiKey;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceStoreTest {

    @TempDir
    Path dir;

    @Test
    void recordsEveryConcurrentCallAndReadsThemBackPerQuestion() {
        try (TraceStore store = TraceStore.open(dir.resolve("traces.db"))) {
            LlmClient client = LlmClient.builder(ScriptedBackend.echo()).traces(store).build();
            Parallel.map(IntStream.range(0, 200).boxed().toList(), i -> client.call(
                    CallContext.of("run-a", "q" + (i % 10), "demo").role("agent").step(i),
                    LlmRequest.user("prompt " + i).build()));

            assertThat(store.calls("run-a")).hasSize(200);
            assertThat(store.calls("run-a", "q3")).hasSize(20)
                    .allSatisfy(r -> assertThat(r.context().role()).isEqualTo("agent"));
            assertThat(store.runs()).containsExactly("run-a");
        }
        // Durable: a new store on the same file sees them.
        try (TraceStore again = TraceStore.open(dir.resolve("traces.db"))) {
            assertThat(again.calls("run-a")).hasSize(200);
        }
    }

    /** The columns of a store's calls table, in order. */
    private static List<String> columns(Path file) throws Exception {
        try (java.sql.Connection c = dev.veracity.store.Sqlite.open(file, true);
             java.sql.ResultSet rs = c.createStatement().executeQuery("PRAGMA table_info(calls)")) {
            List<String> out = new java.util.ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString("name") + " " + rs.getString("type"));
            }
            return out;
        }
    }

    /**
     * A new store is made with every column at once, the same columns in the same order as a store of the first schema
     * gets when opened (whose rows then read the added counts as none); both take the same records.
     */
    @Test
    void aNewStoreHasTheColumnsAnOldStoreIsGiven() throws Exception {
        Path old = dir.resolve("old.db");
        try (java.sql.Connection c = dev.veracity.store.Sqlite.open(old, false)) {
            dev.veracity.store.Sqlite.execute(c, "CREATE TABLE calls (call_id TEXT PRIMARY KEY, run_id TEXT NOT NULL,"
                    + " question_id TEXT NOT NULL, method TEXT NOT NULL, role TEXT NOT NULL, step INTEGER NOT NULL,"
                    + " backend TEXT, model TEXT, prompt TEXT, settings TEXT, outputs TEXT, finish_reasons TEXT,"
                    + " prompt_tokens INTEGER, completion_tokens INTEGER, cached_tokens INTEGER,"
                    + " submitted_us INTEGER, started_us INTEGER, ended_us INTEGER, cache_hit INTEGER,"
                    + " attempts INTEGER, retries INTEGER, error TEXT)",
                    "INSERT INTO calls (call_id, run_id, question_id, method, role, step, outputs, finish_reasons,"
                            + " submitted_us, ended_us) VALUES ('c0', 'r', 'q0', 'demo', 'agent', 0, '[\"a\"]', '[\"stop\"]', 1, 2)");
        }
        for (Path file : List.of(old, dir.resolve("new.db"))) {
            try (TraceStore store = TraceStore.open(file)) {
                LlmClient client = LlmClient.builder(ScriptedBackend.echo()).traces(store).build();
                client.call(CallContext.of("r", "q1", "demo").role("agent"), LlmRequest.user("hi").build());
                assertThat(store.calls("r", "q1")).hasSize(1).allSatisfy(r -> assertThat(r.samples()).isEqualTo(1));
            }
        }
        assertThat(columns(dir.resolve("new.db"))).isEqualTo(columns(old)).contains("cached_latency_us INTEGER");
        try (TraceStore store = TraceStore.open(old)) {
            assertThat(store.calls("r", "q0")).singleElement().satisfies(r -> assertThat(r.cachedSamples()).isZero());
        }
    }

    /** A client of several servers records which one answered; an old store gets the column, its rows none. */
    @Test
    void recordsTheServerThatAnsweredAndAnOldStoreGetsTheColumn() throws Exception {
        Path old = dir.resolve("before-endpoints.db");
        try (java.sql.Connection c = dev.veracity.store.Sqlite.open(old, false)) {
            dev.veracity.store.Sqlite.execute(c, "CREATE TABLE calls (call_id TEXT PRIMARY KEY, run_id TEXT NOT NULL,"
                    + " question_id TEXT NOT NULL, method TEXT NOT NULL, role TEXT NOT NULL, step INTEGER NOT NULL,"
                    + " backend TEXT, model TEXT, prompt TEXT, settings TEXT, outputs TEXT, finish_reasons TEXT,"
                    + " prompt_tokens INTEGER, completion_tokens INTEGER, cached_tokens INTEGER,"
                    + " submitted_us INTEGER, started_us INTEGER, ended_us INTEGER, cache_hit INTEGER,"
                    + " attempts INTEGER, retries INTEGER, error TEXT, samples INTEGER, cached_samples INTEGER,"
                    + " cached_prompt_tokens INTEGER, cached_completion_tokens INTEGER, cached_latency_us INTEGER)",
                    "INSERT INTO calls (call_id, run_id, question_id, method, role, step, outputs, finish_reasons,"
                            + " submitted_us, ended_us) VALUES ('c0', 'r', 'q0', 'demo', 'agent', 0, '[\"a\"]', '[\"stop\"]', 1, 2)");
        }
        try (TraceStore store = TraceStore.open(old)) {
            ScriptedBackend a = new ScriptedBackend("openai:http://a/v1", true, r -> "A");
            ScriptedBackend b = new ScriptedBackend("openai:http://b/v1", true, r -> "B");
            LlmClient client = LlmClient.builder(List.of(a, b)).traces(store).build();
            client.call(CallContext.of("r", "q1", "demo").role("agent"), LlmRequest.user("hi").build());
            client.call(CallContext.of("r", "q2", "demo").role("agent"), LlmRequest.user("hi").build());

            assertThat(store.calls("r", "q0")).singleElement().satisfies(r -> assertThat(r.endpoint()).isNull());
            List<String> answered = List.of(store.calls("r", "q1").getFirst().endpoint(),
                    store.calls("r", "q2").getFirst().endpoint());
            assertThat(answered).containsExactlyInAnyOrder("openai:http://a/v1", "openai:http://b/v1");
            assertThat(store.calls("r", "q1").getFirst().backendId())
                    .isEqualTo("openai:http://a/v1 | openai:http://b/v1");
            StringWriter out = new StringWriter();
            store.exportJsonl("r", out);
            assertThat(out.toString()).contains("\"endpoint\":\"openai:http://a/v1\"");
        }
        assertThat(columns(old)).contains("endpoint TEXT");
    }

    @Test
    void exportsJsonLinesWithTheTraceFields() throws Exception {
        try (TraceStore store = TraceStore.open(dir.resolve("t.db"))) {
            LlmClient client = LlmClient.builder(ScriptedBackend.echo()).traces(store).build();
            client.call(CallContext.of("r", "q1", "march").role("solver"), LlmRequest.user("hi").build());
            client.call(CallContext.of("r", "q1", "march").role("checker").step(1), LlmRequest.user("check").n(3).build());
            StringWriter out = new StringWriter();

            assertThat(store.exportJsonl("r", out)).isEqualTo(2);

            List<JsonNode> lines = out.toString().lines().map(l -> {
                try {
                    return new ObjectMapper().readTree(l);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }).toList();
            assertThat(lines).hasSize(2);
            JsonNode checker = lines.get(1);
            assertThat(checker.get("role").asText()).isEqualTo("checker");
            assertThat(checker.get("question").asText()).isEqualTo("q1");
            assertThat(checker.get("method").asText()).isEqualTo("march");
            assertThat(checker.get("step").asInt()).isEqualTo(1);
            assertThat(checker.get("outputs")).hasSize(3);
            assertThat(checker.get("prompt").asText()).contains("check");
            for (String field : List.of("prompt_tokens", "completion_tokens", "latency_ms", "cache_hit", "retries")) {
                assertThat(checker.has(field)).as(field).isTrue();
            }
        }
    }

    @Test
    void neverStoresARegisteredApiKey() throws Exception {
        String secret = "sk-test-" + "0123456789abcdef";
        ApiKey.of(secret);
        try (TraceStore store = TraceStore.open(dir.resolve("t.db"))) {
            LlmClient client = LlmClient.builder(ScriptedBackend.echo()).traces(store).build();
            client.call(CallContext.of("r", "q", "m"), LlmRequest.user("my key is " + secret).build());
            StringWriter out = new StringWriter();
            store.exportJsonl("r", out);
            assertThat(out.toString()).doesNotContain(secret).contains("redacted");
            assertThat(store.calls("r").getFirst().prompt()).doesNotContain(secret);
        }
    }
}
