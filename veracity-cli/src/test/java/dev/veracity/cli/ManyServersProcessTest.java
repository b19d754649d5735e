package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.llm.client.Clock;
import dev.veracity.testing.Shared;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28's test of many model servers: three simulators, each a process of its own ({@code veracity sim}), one
 * MADAM-RAG run over all three, and one simulator killed (SIGKILL) while the run is under way. Every question is
 * answered once, the calls are spread over the servers (the killed one answers none after its death), and nothing is
 * lost: the calls it had in flight are retried on the others.
 */
class ManyServersProcessTest {

    private static final int QUESTIONS = 12;

    @TempDir
    Path dir;

    @Test
    void aMadamRunOverThreeSimulatorsLosesNothingWhenOneIsKilledMidRun() throws Exception {
        Path data = Shared.data("ramdocs/RAMDocs_test.jsonl");
        List<CliProcess> sims = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                // 40 ms to the first token: the run lasts long enough to kill one while it is under way
                sims.add(CliProcess.start("sim", "--port", "0", "--ttft-ms", "40"));
            }
            List<String> urls = new ArrayList<>();
            for (CliProcess s : sims) {
                urls.add(s.url("Veracity simulator listening on"));
            }
            Path out = dir.resolve("run");
            java.util.concurrent.ExecutorService runner = java.util.concurrent.Executors.newSingleThreadExecutor();
            CompletableFuture<CliRun.Result> run = CompletableFuture.supplyAsync(() -> CliRun.run("eval",
                    "--method", "madam-rag", "--dataset", "ramdocs", "--data", data.toString(), "--limit",
                    String.valueOf(QUESTIONS), "--out", out.toString(), "--llm-base-url", String.join(",", urls),
                    "--model", "sim-model", "--cache", "off", "--concurrency", "2", "--timeout-seconds", "20"),
                    runner); // a thread of its own: the common pool may have one worker here, which the run would take

            // kill the second once two questions are answered (each server has answered calls by then)
            Path results = out.resolve("results.jsonl");
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2); // a guard, not a measure
            while (lines(results) < 2) {
                assertThat(run).as("the run ended before the kill: " + (run.isDone() ? run.join() : ""))
                        .isNotDone();
                assertThat(System.nanoTime()).as("two questions answered within two minutes").isLessThan(deadline);
                Thread.sleep(20);
            }
            Process killed = sims.get(1).process();
            long killMicros = Clock.micros();
            killed.destroyForcibly();
            assertThat(killed.waitFor(30, TimeUnit.SECONDS)).isTrue();
            long deathMicros = Clock.micros();
            int answeredAtKill = lines(results);

            CliRun.Result r = run.get(3, TimeUnit.MINUTES);
            runner.shutdown();

            assertThat(r.code()).as(r.err() + r.out()).isZero();
            assertThat(answeredAtKill).as("killed mid-run").isLessThan(QUESTIONS);
            ObjectMapper json = new ObjectMapper();
            List<JsonNode> rows = new ArrayList<>();
            for (String l : Files.readAllLines(results)) {
                rows.add(json.readTree(l));
            }
            assertThat(rows).hasSize(QUESTIONS);
            assertThat(rows).allSatisfy(row -> assertThat(row.has("failed")).as(row.toString()).isFalse());
            assertThat(rows.stream().map(row -> row.path("id").asText()).distinct().count()).isEqualTo(QUESTIONS);

            JsonNode summary = json.readTree(out.resolve("summary.json").toFile());
            assertThat(summary.path("n").asLong()).isEqualTo(QUESTIONS);
            JsonNode servers = summary.path("endpoints");
            assertThat(servers).hasSize(3);
            for (int i = 0; i < 3; i++) {
                assertThat(servers.get(i).path("endpoint").asText()).isEqualTo("openai:" + urls.get(i));
                assertThat(servers.get(i).path("answered").asLong()).as("server %d answered some", i).isPositive();
            }
            JsonNode dead = servers.get(1);
            assertThat(dead.path("failures").asLong()).isGreaterThanOrEqualTo(3);
            assertThat(dead.path("ejections").asLong()).isGreaterThanOrEqualTo(1);
            assertThat(dead.path("returns").asLong()).isZero();

            // the traces: every call answered, each by one server, the killed one none after its death
            try (TraceStore traces = TraceStore.open(out.resolve("traces.db"))) {
                List<CallRecord> calls = new ArrayList<>();
                traces.runs().forEach(run1 -> calls.addAll(traces.calls(run1)));
                assertThat(calls).allSatisfy(c -> assertThat(c.error()).isNull());
                assertThat(calls).allSatisfy(c -> assertThat(urls.stream().map(u -> "openai:" + u))
                        .contains(c.endpoint()));
                String killedId = "openai:" + urls.get(1);
                // what it answered was asked before the kill (an answer's end is recorded after it came, so the start)
                assertThat(calls).filteredOn(c -> killedId.equals(c.endpoint()))
                        .isNotEmpty()
                        .allSatisfy(c -> assertThat(c.startedMicros()).isLessThan(killMicros));
                long afterDeath = calls.stream().filter(c -> c.startedMicros() > deathMicros).count();
                assertThat(afterDeath).as("calls made after the kill").isPositive();
                assertThat(calls.stream().filter(c -> c.startedMicros() > deathMicros).map(CallRecord::endpoint)
                        .distinct()).containsExactlyInAnyOrder("openai:" + urls.get(0), "openai:" + urls.get(2));
            }
        } finally {
            for (CliProcess s : sims) {
                s.close();
            }
        }
    }

    private static int lines(Path file) throws Exception {
        return Files.exists(file) ? (int) Files.readAllLines(file).stream().filter(l -> !l.isBlank()).count() : 0;
    }
}
