package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A method in a plug-in jar, found with {@code --plugins DIR}: listed by {@code methods}, run by {@code eval} as the
 * built-in ones are, absent without the flag; a clash with a built-in name and a folder without jars are one-line
 * errors. The jar is compiled and packed by the test, as a user's build would make it.
 */
class PluginsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** A closed-book method that asks the model in its own words and answers with the reply's first line. */
    private static String method(String name) {
        return """
                package example.plugin;

                import dev.veracity.llm.LlmRequest;
                import dev.veracity.method.MethodAnswer;
                import dev.veracity.method.MethodContext;
                import dev.veracity.method.MethodSpec;
                import dev.veracity.method.OptionSpec;
                import dev.veracity.method.QaMethod;
                import dev.veracity.qa.QaItem;
                import java.util.List;
                import java.util.Map;

                public final class ShortAnswer implements QaMethod {
                    private static final MethodSpec SPEC = new MethodSpec("NAME", "Answers in one line (a test plug-in).",
                            "none", "", List.of(OptionSpec.integer("max-tokens", 32, "output limit")));

                    @Override public String name() { return "NAME"; }
                    @Override public MethodSpec spec() { return SPEC; }
                    @Override public boolean needsDocuments() { return false; }

                    @Override
                    public MethodAnswer answer(QaItem item, MethodContext ctx) {
                        int max = SPEC.resolve(ctx.options()).intValue("max-tokens");
                        String out = ctx.llm().call(ctx.role("answerer", 0), LlmRequest.user("Plug-in asks: "
                                + item.question()).maxTokens(max).build()).text();
                        String line = out.strip().lines().findFirst().orElse("");
                        return new MethodAnswer(line, List.of(line), List.of(), Map.of(), out);
                    }
                }
                """.replace("NAME", name);
    }

    private static final String PROVIDER = """
            package example.plugin;

            import dev.veracity.plugin.MethodProvider;
            import java.util.List;

            public final class Provider implements MethodProvider {
                @Override
                public List<Entry> methods() {
                    return List.of(new Entry(new ShortAnswer().name(), ShortAnswer::new));
                }
            }
            """;

    private Path plugin(String folder, String name) throws Exception {
        Path d = Files.createDirectories(dir.resolve(folder));
        PluginJar.build(d.resolve("short-answer.jar"), Map.of("example.plugin.ShortAnswer", method(name),
                "example.plugin.Provider", PROVIDER), Map.of("dev.veracity.plugin.MethodProvider",
                List.of("example.plugin.Provider")));
        return d;
    }

    @Test
    void aMethodInAPluginJarIsListedAndRunsInEvalAsTheBuiltInOnesDo() throws Exception {
        Path plugins = plugin("plugins", "short-answer");

        CliRun.Result listed = CliRun.run("methods", "--plugins", plugins.toString());
        assertThat(listed.code()).as(listed.err()).isZero();
        assertThat(listed.out()).contains("short-answer").contains("Answers in one line (a test plug-in).")
                .contains("madam-rag");
        assertThat(CliRun.run("methods").out()).doesNotContain("short-answer"); // not on the class path

        Path data = dir.resolve("nq.jsonl");
        Files.writeString(data, """
                {"question": "capital of france", "answer": ["Paris"]}
                {"question": "capital of italy", "answer": ["Rome"]}
                """);
        Rule answer = Rule.of("(?s)^Plug-in asks: capital of (\\w+)$",
                m -> m.group(1).equals("france") ? "Paris\nbecause it is." : "Milan\nI think.");
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(answer).build())) {
            CliRun.Result r = CliRun.run("eval", "--plugins=" + plugins, "--method", "short-answer", "--dataset", "nq-open",
                    "--data", data.toString(), "--out", dir.resolve("run").toString(), "--llm-base-url", sim.baseUrl(),
                    "--model", "sim-model", "--cache", "off", "--option", "max-tokens=20");
            assertThat(r.code()).as(r.err()).isZero();
        }
        JsonNode summary = JSON.readTree(dir.resolve("run/summary.json").toFile());
        assertThat(summary.get("method").asText()).isEqualTo("short-answer");
        assertThat(summary.at("/metrics/nq-em").asDouble()).isEqualTo(0.5);
        assertThat(summary.at("/config/method_options/max-tokens").asText()).isEqualTo("20");
        List<String> lines = Files.readAllLines(dir.resolve("run/results.jsonl"));
        assertThat(lines).hasSize(2);
        assertThat(JSON.readTree(lines.getFirst()).get("prediction").asText()).isIn("Paris", "Milan");

        CliRun.Result unknown = CliRun.run("eval", "--method", "short-answer", "--dataset", "nq-open", "--data",
                data.toString(), "--out", dir.resolve("other").toString(), "--no-preflight");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown method 'short-answer'");
    }

    @Test
    void aPluginMethodNamedLikeABuiltInOneIsRefusedNamingBoth() throws Exception {
        Path plugins = plugin("clash", "no-rag");
        CliRun.Result r = CliRun.run("methods", "--plugins", plugins.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip().lines()).singleElement().asString().contains("two methods named 'no-rag'")
                .contains("dev.veracity.methods.BuiltInMethods").contains("example.plugin.Provider");
    }

    @Test
    void aPluginFolderThatIsNoneOrHoldsNoJarIsOneLine() throws Exception {
        CliRun.Result missing = CliRun.run("methods", "--plugins", dir.resolve("nowhere").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err().strip()).startsWith("veracity: no plug-in folder at").doesNotContain("\n");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        CliRun.Result none = CliRun.run("methods", "--plugins", empty.toString());
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).contains("holds no .jar file");
        CliRun.Result bare = CliRun.run("methods", "--plugins");
        assertThat(bare.code()).isEqualTo(2);
        assertThat(bare.err()).contains("--plugins needs a folder");
    }
}
