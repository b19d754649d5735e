package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.results.RunConfiguration;
import dev.veracity.eval.results.Summary;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON a run writes: numbers are numbers (a method's options too), and keys come in the order of the typed records
 * ({@link Summary}, {@link RunConfiguration}), the same in every run; a run.json written before the options were typed
 * resumes as the same configuration.
 */
class RunJsonShapeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

    @TempDir
    Path dir;

    private CliRun.Result eval(SimServer sim, String method, Path out, String... extra) throws Exception {
        Path data = dir.resolve("nq.jsonl");
        if (!Files.exists(data)) {
            Files.writeString(data, "{\"question\": \"capital of france\", \"answer\": [\"Paris\"]}\n"
                    + "{\"question\": \"capital of italy\", \"answer\": [\"Rome\"]}\n");
        }
        List<String> args = new ArrayList<>(List.of("eval", "--method", method, "--dataset", "nq-open", "--data",
                data.toString(), "--out", out.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model",
                "--cache", "off"));
        args.addAll(List.of(extra));
        return CliRun.run(args.toArray(String[]::new));
    }

    /** Every text value of the tree that reads as a number, by its path. */
    private static List<String> stringlyNumbers(JsonNode node, String path) {
        List<String> out = new ArrayList<>();
        if (node.isTextual() && NUMBER.matcher(node.asText()).matches()) {
            out.add(path + " = \"" + node.asText() + "\"");
        }
        if (node.isObject()) {
            node.properties().forEach(e -> out.addAll(stringlyNumbers(e.getValue(), path + "/" + e.getKey())));
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                out.addAll(stringlyNumbers(node.get(i), path + "/" + i));
            }
        }
        return out;
    }

    private static List<String> keys(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static List<String> components(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents())
                .map(c -> PropertyNamingStrategies.SnakeCaseStrategy.INSTANCE.translate(c.getName())).toList();
    }

    @Test
    void summaryAndRunJsonWriteNumbersAsNumbersIncludingTheMethodsOptions() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            Path out = dir.resolve("cot-sc");
            CliRun.Result r = eval(sim, "cot-sc", out, "--option", "k=3", "--option", "temperature=0.5");
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            JsonNode run = JSON.readTree(out.resolve("run.json").toFile());
            assertThat(stringlyNumbers(summary, "summary.json")).isEmpty();
            assertThat(stringlyNumbers(run, "run.json")).isEmpty();
            assertThat(run.at("/method_options/k").isInt()).isTrue();
            assertThat(run.at("/method_options/k").asInt()).isEqualTo(3);
            assertThat(run.at("/method_options/temperature").isDouble()).isTrue();
            assertThat(run.at("/method_options/endpoint").asText()).isEqualTo("chat");
            assertThat(summary.path("concurrency").isInt() || summary.at("/concurrency_limit/settled").isInt()).isTrue();
        }
    }

    @Test
    void keysComeInTheOrderOfTheTypedRecordsInEveryRun() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            Path a = dir.resolve("a");
            Path b = dir.resolve("b");
            assertThat(eval(sim, "no-rag", a).code()).isZero();
            assertThat(eval(sim, "cot-sc", b, "--option", "k=2").code()).isZero();
            for (Path run : List.of(a, b)) {
                JsonNode summary = JSON.readTree(run.resolve("summary.json").toFile());
                List<String> order = components(Summary.class);
                assertThat(keys(summary)).isSortedAccordingTo((x, y) -> order.indexOf(x) - order.indexOf(y))
                        .allSatisfy(k -> assertThat(order).contains(k));
                List<String> config = components(RunConfiguration.class);
                assertThat(keys(JSON.readTree(run.resolve("run.json").toFile())))
                        .isSortedAccordingTo((x, y) -> config.indexOf(x) - config.indexOf(y));
                assertThat(keys(summary.get("config"))).isSortedAccordingTo((x, y) -> config.indexOf(x) - config.indexOf(y));
            }
            // the same keys in the same order in both runs, level by level where both have an object
            JsonNode sa = JSON.readTree(a.resolve("summary.json").toFile());
            JsonNode sb = JSON.readTree(b.resolve("summary.json").toFile());
            List<String> shared = keys(sa).stream().filter(sb::has).toList();
            assertThat(keys(sb).stream().filter(sa::has).toList()).isEqualTo(shared);
        }
    }

    @Test
    void aRunJsonWrittenBeforeTheOptionsWereTypedResumesAsTheSameConfiguration() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            Path out = dir.resolve("old");
            assertThat(eval(sim, "cot-sc", out, "--option", "k=2").code()).isZero();
            // as an earlier build wrote it: every option's value as text
            ObjectNode run = (ObjectNode) JSON.readTree(out.resolve("run.json").toFile());
            ObjectNode options = (ObjectNode) run.get("method_options");
            List<String> names = keys(options);
            names.forEach(k -> options.put(k, options.get(k).asText()));
            Files.writeString(out.resolve("run.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(run));
            long asked = sim.counters().generationRequests();
            CliRun.Result again = eval(sim, "cot-sc", out, "--option", "k=2");
            assertThat(again.code()).as(again.err()).isZero();
            assertThat(sim.counters().generationRequests()).isEqualTo(asked); // resumed: nothing left to ask
            // another value is still another configuration
            CliRun.Result other = eval(sim, "cot-sc", out, "--option", "k=3");
            assertThat(other.code()).isEqualTo(2);
            assertThat(other.err()).contains("another configuration").contains("method_options");
        }
    }
}
