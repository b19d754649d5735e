package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak in small, in CI: {@code veracity eval} as a separate JVM against a simulator that injects 10% faults (429,
 * 500, hangs past the client's timeout, connection resets, malformed and truncated bodies), killed with SIGKILL after
 * random delays several times and started again with the same {@code --out}, with a torn last line planted in its
 * JSONL files as a kill mid-write leaves it. The run folder must end with every question answered exactly once or
 * recorded failed with its reason, every line parseable, and a summary that agrees with the lines. The large run is
 * {@code ./veracity bench soak}.
 */
class KillResumeSoakTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A question the model always answers with nothing: it fails after its retries, every run, deterministically. */
    private static final String POISON = "Which answer can never be given?";

    @TempDir
    Path dir;

    @Test
    void killedAtRandomAndResumedTheRunFolderHoldsEachQuestionExactlyOnce() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path data = dataset(dir.resolve("questions.jsonl"));
        int questions = (int) Files.lines(data).count();
        Path out = dir.resolve("run");
        Path results = out.resolve("results.jsonl");
        Path records = out.resolve("march-records.jsonl");
        FaultPlan faults = FaultPlan.none().withHangDuration(Duration.ofSeconds(2)).withRate(FaultKind.RATE_LIMIT, 0.0167)
                .withRate(FaultKind.SERVER_ERROR, 0.0167).withRate(FaultKind.HANG, 0.0167)
                .withRate(FaultKind.RESET, 0.0167).withRate(FaultKind.MALFORMED_JSON, 0.0167)
                .withRate(FaultKind.TRUNCATED, 0.0167);
        try (SimServer sim = SimServer.start(SimConfig.builder().latency(LatencyModel.ofMillis(10, 0)).faults(faults)
                .seed(seed).retryAfter(Duration.ofMillis(50)).rules(Rule.of(java.util.regex.Pattern.quote(POISON), ""))
                .build())) {
            int kills = 0;
            boolean torn = false;
            for (int round = 0; round < 3; round++) {
                Process p = eval(sim, data, out);
                if (round > 0) {
                    // mid-run: once this run has written a line of its own, then a random moment later
                    long lines = wholeLines(results);
                    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    while (p.isAlive() && wholeLines(results) == lines && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                }
                // round 0: a random point of the start-up (JVM, checks, the claim of the folder, the first calls)
                long delay = round == 0 ? 300 + random.nextInt(1500) : random.nextInt(1000);
                if (!p.waitFor(delay, TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly(); // SIGKILL
                    p.waitFor();
                    kills++;
                }
                everyWholeLineParses(results, "after kill " + kills + " (seed " + seed + ")");
                if (!torn && Files.exists(results) && Files.exists(records)) {
                    // a kill mid-write, which a random delay rarely hits: half a line, no newline
                    tear(results);
                    tear(records);
                    torn = true;
                }
            }
            assertThat(kills).as("the run must still be going when killed (seed %d); %s", seed, log())
                    .isGreaterThanOrEqualTo(2);
            assertThat(torn).as("a torn line was planted (seed %d); %s", seed, log()).isTrue();

            Process last = eval(sim, data, out);
            assertThat(last.waitFor(40, TimeUnit.SECONDS)).as("final run finished; %s", log()).isTrue();
            assertThat(last.exitValue()).as("exit 1: a question failed (the poisoned one)").isEqualTo(1);
        }

        List<JsonNode> lines = everyWholeLineParses(results, "at the end (seed " + seed + ")");
        assertThat(Files.readString(results)).endsWith("\n");
        Map<String, Integer> answers = new HashMap<>();
        Map<String, JsonNode> lastRecord = new LinkedHashMap<>();
        for (JsonNode l : lines) {
            String id = l.get("id").asText();
            if (!l.has("failed")) {
                answers.merge(id, 1, Integer::sum);
            }
            lastRecord.put(id, l);
        }
        assertThat(answers.values()).as("no question answered twice (seed %d)", seed).allMatch(c -> c == 1);
        assertThat(lastRecord).as("every question has a record").hasSize(questions);
        List<JsonNode> failed = lastRecord.values().stream().filter(l -> l.has("failed")).toList();
        assertThat(answers.size() + failed.size()).isEqualTo(questions);
        assertThat(failed).as("the poisoned question is recorded failed (seed %d)", seed)
                .anySatisfy(f -> assertThat(f.get("question").asText()).isEqualTo(POISON));
        for (JsonNode f : failed) {
            assertThat(f.get("failed").asText()).startsWith("Model call to").doesNotContain("\n");
            // the last attempt's error: the empty answer, or a fault that hit that attempt
            assertThat(f.get("failed_kind").asText()).isIn("EMPTY_RESPONSE", "RATE_LIMITED", "SERVER_ERROR", "TIMEOUT",
                    "CONNECTION", "MALFORMED_RESPONSE");
        }

        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertThat(summary.get("n").asInt()).as("summary n = answered lines").isEqualTo(answers.size());
        assertThat(summary.get("failed").asInt()).as("summary failed = failed questions").isEqualTo(failed.size());
        assertThat(summary.at("/metrics_n/strict-multi").asInt()).isEqualTo(answers.size());

        // the MARCH training records: torn line cut, every line whole JSON
        List<JsonNode> recordLines = everyWholeLineParses(records, "march records (seed " + seed + ")");
        assertThat(recordLines).isNotEmpty();
        assertThat(Files.readString(records)).endsWith("\n");
    }

    /** 8 of the bundled RAMDocs questions, again with other wording (8 more prompts), and the poisoned one. */
    private static Path dataset(Path file) throws Exception {
        Path bundled = MethodsDemo.copyBundled(file.resolveSibling("bundled.jsonl"));
        List<String> out = new ArrayList<>();
        List<String> src = Files.readAllLines(bundled).subList(0, 8);
        for (String variant : List.of("", " Answer from the documents.")) {
            for (String l : src) {
                ObjectNode q = (ObjectNode) JSON.readTree(l);
                q.put("question", q.get("question").asText() + variant);
                out.add(q.toString());
            }
        }
        ObjectNode poison = (ObjectNode) JSON.readTree(src.getFirst());
        poison.put("question", POISON);
        out.add(poison.toString());
        Files.write(file, out);
        return file;
    }

    private Process eval(SimServer sim, Path data, Path out) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), VeracityCli.class.getName(), "eval", "--method", "march",
                "--dataset", "ramdocs", "--data", data.toString(), "--out", out.toString(),
                "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--concurrency", "8",
                "--questions-at-once", "6", "--timeout-seconds", "1", "--no-preflight",
                "--cache-file", dir.resolve("cache.db").toString());
        pb.environment().put("VERACITY_MAX_ATTEMPTS", "4");
        return pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("eval.log").toFile()))
                .start();
    }

    private static long wholeLines(Path file) throws Exception {
        return Files.exists(file) ? Files.readString(file).chars().filter(c -> c == '\n').count() : 0;
    }

    private String log() throws Exception {
        Path log = dir.resolve("eval.log");
        return Files.exists(log) ? "eval output:\n" + Files.readString(log) : "no eval output";
    }

    /** Every newline-terminated line parses as a JSON object with an id (a partial last line is allowed). */
    private static List<JsonNode> everyWholeLineParses(Path file, String when) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String whole = text.substring(0, text.lastIndexOf('\n') + 1);
        int n = 0;
        for (String l : whole.split("\n")) {
            n++;
            if (l.isEmpty()) {
                continue;
            }
            JsonNode node;
            try {
                node = JSON.readTree(l);
            } catch (Exception e) {
                throw new AssertionError(file.getFileName() + ":" + n + " is not JSON " + when + ": " + l, e);
            }
            assertThat(node.isObject()).isTrue();
            out.add(node);
        }
        return out;
    }

    /** Appends the first half of the file's last line, with no newline: what a kill mid-write leaves. */
    private static void tear(Path file) throws Exception {
        if (Files.size(file) == 0) {
            Files.writeString(file, "{\"id\": \"ramdocs-0\", \"predic", StandardOpenOption.APPEND);
            return;
        }
        List<String> lines = Files.readAllLines(file);
        String last = lines.getLast();
        Files.writeString(file, last.substring(0, last.length() / 2), StandardOpenOption.APPEND);
    }
}
