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

    /**
     * A closed-book method that asks the model in its own words and answers with the reply's first line; {@code needs}:
     * what else it declares it needs ({@code Own.GPU_INDEX}: a need of its own, which no runner here provides).
     */
    private static String method(String name, String needs) {
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
                    enum Own implements dev.veracity.method.Capability {
                        GPU_INDEX;
                        @Override public String key() { return "gpu-index"; }
                        @Override public String description() { return "a GPU vector index"; }
                    }

                    private static final MethodSpec SPEC = new MethodSpec("NAME", "Answers in one line (a test plug-in).",
                            "none", "", List.of(OptionSpec.integer("max-tokens", 32, "output limit"))).withNeeds(NEEDS);

                    @Override public String name() { return "NAME"; }
                    @Override public MethodSpec spec() { return SPEC; }

                    @Override
                    public MethodAnswer answer(QaItem item, MethodContext ctx) {
                        int max = SPEC.resolve(ctx.options()).intValue("max-tokens");
                        String out = ctx.llm().call(ctx.role("answerer", 0), LlmRequest.user("Plug-in asks: "
                                + item.question()).maxTokens(max).build()).text();
                        String line = out.strip().lines().findFirst().orElse("");
                        return new MethodAnswer(line, List.of(line), List.of(), Map.of(), out);
                    }
                }
                """.replace("NAME", name).replace("NEEDS", needs);
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

    /** The simulator's reader of the plug-in method's prompts: the answer counts the question's words. */
    private static final String READER = """
            package example.plugin;

            import dev.veracity.sim.reader.PromptReader;
            import java.util.Optional;

            public final class Reader implements PromptReader {
                @Override public String name() { return "short-answer"; }

                @Override
                public Optional<String> read(String prompt) {
                    return prompt.startsWith("Plug-in asks: ") ? Optional.of("Read by the plug-in: "
                            + prompt.strip().split("\\\\s+").length + " words\\nsecond line") : Optional.empty();
                }
            }
            """;

    private Path plugin(String folder, String name) throws Exception {
        return plugin(folder, name, "", false);
    }

    private Path plugin(String folder, String name, String needs) throws Exception {
        return plugin(folder, name, needs, false);
    }

    /**
     * A plug-in with the method {@code name} declaring {@code needs}, and with the simulator's reader of its prompts
     * when {@code reader}.
     */
    private Path plugin(String folder, String name, String needs, boolean reader) throws Exception {
        Path d = Files.createDirectories(dir.resolve(folder));
        Map<String, String> sources = new java.util.HashMap<>(Map.of("example.plugin.ShortAnswer", method(name, needs),
                "example.plugin.Provider", PROVIDER));
        Map<String, List<String>> services = new java.util.HashMap<>(Map.of("dev.veracity.plugin.MethodProvider",
                List.of("example.plugin.Provider")));
        if (reader) {
            sources.put("example.plugin.Reader", READER);
            services.put("dev.veracity.sim.reader.PromptReader", List.of("example.plugin.Reader"));
        }
        PluginJar.build(d.resolve("short-answer.jar"), sources, services);
        return d;
    }

    @Test
    void aPluginsReaderAnswersItsMethodsPromptsInTheSimulatorTheCliStarts() throws Exception {
        for (boolean reader : List.of(true, false)) {
            Path plugins = plugin(reader ? "with-reader" : "without-reader", "short-answer", "", reader);
            Path out = dir.resolve(reader ? "demo-with" : "demo-without");
            CliRun.Result r = CliRun.run("demo", "--plugins", plugins.toString(), "--method", "short-answer", "--limit",
                    "2", "--latency-ms", "0", "--cache", "off", "--out", out.toString());
            assertThat(r.code()).as(r.err()).isZero();
            List<String> lines = Files.readAllLines(out.resolve("short-answer/results.jsonl"));
            assertThat(lines).hasSize(2);
            for (String line : lines) {
                String prediction = JSON.readTree(line).get("prediction").asText();
                if (reader) {
                    assertThat(prediction).matches("Read by the plug-in: \\d+ words");
                } else {
                    assertThat(prediction).isEqualTo(dev.veracity.sim.RuleSet.DEFAULT_RESPONSE); // nothing reads it
                }
            }
        }
        // the plug-in's reader is in the chain, after the project's own
        Path before = dev.veracity.plugin.Plugins.folder();
        dev.veracity.plugin.Plugins.useFolder(dir.resolve("with-reader"));
        try {
            assertThat(SimCommand.simulator().build().readers()).extracting(dev.veracity.sim.reader.PromptReader::name)
                    .startsWith("judges").endsWith("baselines", "short-answer");
        } finally {
            dev.veracity.plugin.Plugins.useFolder(before);
        }
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

    /**
     * An eval of a plug-in's method stopped by SIGTERM (Ctrl-C) names the command to resume it with its plug-in folder
     * ({@code main} took {@code --plugins} out of the arguments, wherever it was, before picocli saw them), and that
     * command finishes the run. The model's answer waits on a latch the test holds, so the stop comes while a call is
     * under way, whatever the machine's speed.
     */
    @Test
    void anInterruptedEvalOfAPluginMethodNamesTheCommandWithItsPluginFolderAndThatCommandFinishesIt() throws Exception {
        Path plugins = plugin("plugins", "short-answer");
        Path data = dir.resolve("nq.jsonl");
        Files.writeString(data, """
                {"question": "capital of france", "answer": ["Paris"]}
                {"question": "capital of italy", "answer": ["Rome"]}
                """);
        java.util.concurrent.CountDownLatch answer = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        Rule held = Rule.of("(?s)^Plug-in asks: capital of (\\w+)$", m -> {
            asked.incrementAndGet();
            try {
                answer.await(); // a guard-free wait: the test opens it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return m.group(1).equals("france") ? "Paris" : "Rome";
        });
        Path out = dir.resolve("run");
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(held).build())) {
            List<String> args = List.of("eval", "--method", "short-answer", "--dataset", "nq-open", "--data",
                    data.toString(), "--out", out.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model",
                    "--cache", "off", "--concurrency", "1", "--no-preflight");
            List<String> typed = new java.util.ArrayList<>(List.of("--plugins", plugins.toString()));
            typed.addAll(args); // --plugins before the command: main takes it out wherever it is
            String hint;
            try (CliProcess eval = CliProcess.start(typed.toArray(String[]::new))) {
                dev.veracity.testing.Await.until("the method's first call at the model", () -> asked.get() >= 1);
                eval.terminate();
                assertThat(eval.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                eval.awaitErr();
                String prefix = "resume with the same command: ";
                hint = eval.err().stream().filter(l -> l.contains(prefix)).findFirst()
                        .map(l -> l.substring(l.indexOf(prefix) + prefix.length()))
                        .orElseThrow(() -> new AssertionError("no resume hint in " + eval.err()));
            } finally {
                answer.countDown();
            }
            assertThat(hint).isEqualTo("./veracity " + String.join(" ", args) + " --plugins " + plugins);
            assertThat(out.resolve("summary.json")).doesNotExist();

            CliRun.Result resumed = CliRun.run(hint.substring("./veracity ".length()).split(" "));
            assertThat(resumed.code()).as(resumed.err()).isZero();
        }
        assertThat(JSON.readTree(out.resolve("summary.json").toFile()).get("method").asText()).isEqualTo("short-answer");
        assertThat(Files.readAllLines(out.resolve("results.jsonl"))).hasSize(2);
    }

    @Test
    void aPluginMethodThatNeedsWhatNoRunnerProvidesIsListedButRefusedInOneLineBeforeAnyModelCall() throws Exception {
        Path plugins = plugin("gpu", "gpu-answer", "Own.GPU_INDEX");
        CliRun.Result listed = CliRun.run("methods", "gpu-answer", "--plugins", plugins.toString());
        assertThat(listed.code()).as(listed.err()).isZero();
        assertThat(listed.out()).contains("needs: gpu-index");

        Path data = dir.resolve("nq.jsonl");
        Files.writeString(data, """
                {"question": "capital of france", "answer": ["Paris"]}
                """);
        try (SimServer sim = SimServer.start()) {
            CliRun.Result r = CliRun.run("eval", "--plugins", plugins.toString(), "--method", "gpu-answer", "--dataset",
                    "nq-open", "--data", data.toString(), "--out", dir.resolve("run").toString(), "--llm-base-url",
                    sim.baseUrl(), "--model", "sim-model", "--cache", "off");
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err().strip()).startsWith("veracity eval: method gpu-answer needs gpu-index (a GPU vector index),"
                    + " which no runner here provides").doesNotContain("\n");
            assertThat(sim.recentRequests()).isEmpty();

            CliRun.Result asked = CliRun.run("ask", "capital of france", "--plugins", plugins.toString(), "--method",
                    "gpu-answer", "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off");
            assertThat(asked.code()).isEqualTo(2);
            assertThat(asked.err().strip()).contains("method gpu-answer needs gpu-index (a GPU vector index), which no"
                    + " runner here provides").doesNotContain("\n");
            assertThat(sim.recentRequests()).as("ask: no model call either").isEmpty();
        }
        assertThat(dir.resolve("run/results.jsonl")).doesNotExist();
    }

    @Test
    void serveAnswersAPluginMethodsUnmetNeedWith400BeforeAnyModelCall() throws Exception {
        Path plugins = plugin("gpu-serve", "gpu-answer", "Own.GPU_INDEX");
        try (SimServer sim = SimServer.start();
             CliProcess serve = CliProcess.start("serve", "--plugins", plugins.toString(), "--port", "0",
                     "--upstream-base-url", sim.baseUrl(), "--model", "sim-model")) {
            String v1 = serve.url("Serving ");
            var r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(v1 + "/chat/completions")).header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"model\": \"gpu-answer\", \"messages\":"
                            + " [{\"role\": \"user\", \"content\": \"capital of france\"}], \"documents\": [\"Paris.\"]}"))
                    .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
            JsonNode error = JSON.readTree(r.body()).path("error");
            assertThat(error.path("code").asText()).isEqualTo("unsupported_method");
            assertThat(error.path("message").asText()).contains("method gpu-answer needs gpu-index");
            assertThat(sim.recentRequests()).as("no model call (serve's start-up check of /models only)")
                    .allSatisfy(q -> assertThat(q.path()).endsWith("/models"));
        }
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
    void aPluginBuiltAgainstAnotherVeracityIsOneLineNamingIt() throws Exception {
        Path d = Files.createDirectories(dir.resolve("stale"));
        PluginJar.build(d.resolve("stale.jar"), Map.of("example.stale.Provider", """
                package example.stale;

                import dev.veracity.plugin.MethodProvider;
                import java.util.List;

                public final class Provider implements MethodProvider {
                    @Override
                    public List<Entry> methods() {
                        throw new NoClassDefFoundError("dev/veracity/method/SomethingRemoved");
                    }
                }
                """), Map.of("dev.veracity.plugin.MethodProvider", List.of("example.stale.Provider")));
        CliRun.Result r = CliRun.run("methods", "--plugins", d.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("veracity").contains("the methods of example.stale.Provider could not be read")
                .contains("SomethingRemoved").contains("rebuild the plug-in").doesNotContain("\n");
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

    /** One jar contributing a dataset, a reward, a judge and a command: each found where the built-in ones are. */
    private Path everyKind() throws Exception {
        Path d = Files.createDirectories(dir.resolve("kinds"));
        String dataset = """
                package example.kinds;

                import dev.veracity.eval.data.DatasetProvider;
                import dev.veracity.eval.data.DatasetSpec;
                import dev.veracity.eval.data.Fields;
                import dev.veracity.eval.data.Record;
                import dev.veracity.eval.data.RecordLoader;
                import dev.veracity.qa.GoldAnswer;
                import dev.veracity.qa.QaItem;
                import java.util.List;

                public final class Datasets implements DatasetProvider {
                    static final class Loader extends RecordLoader {
                        Loader() { super("qa-pairs"); }
                        @Override protected QaItem convert(Record rec) {
                            Fields f = rec.fields();
                            return new QaItem(f.text("key"), f.text("q"), null, List.of(GoldAnswer.of(f.text("a"))),
                                    null, null, null, rec.node());
                        }
                    }
                    @Override public List<DatasetSpec> datasets() {
                        return List.of(new DatasetSpec("qa-pairs", List.of("pairs"), List.of("em"), false, false,
                                "question/answer pairs (a test plug-in)", Loader::new)
                                .withFields(List.of("key", "q"), List.of("a")));
                    }
                }
                """;
        String reward = """
                package example.kinds;

                import dev.veracity.rl.reward.Reward;
                import dev.veracity.rl.reward.RewardInput;
                import dev.veracity.rl.reward.RewardProvider;
                import dev.veracity.rl.reward.RewardResult;
                import dev.veracity.rl.reward.Rewards;
                import java.util.List;
                import java.util.Map;

                public final class Brevity implements RewardProvider {
                    @Override public List<Rewards.Spec> rewards() {
                        return List.of(new Rewards.Spec("one-word", "1 for a one-word response (a test plug-in)", false,
                                settings -> new Reward() {
                                    @Override public String name() { return "one-word"; }
                                    @Override public RewardResult score(RewardInput in) {
                                        int words = in.response().strip().split("\\\\s+").length;
                                        return RewardResult.ok(words == 1 ? 1.0 : 0.0, Map.of("words", words));
                                    }
                                }));
                    }
                }
                """;
        String judge = """
                package example.kinds;

                import dev.veracity.eval.judge.JudgeProvider;
                import dev.veracity.eval.judge.Outcome;
                import dev.veracity.eval.judge.Verdict;
                import java.util.List;

                public final class Judges implements JudgeProvider {
                    @Override public List<Entry> judges() {
                        return List.of(new Entry("contains", List.of("substring-judge"), "a gold answer inside the"
                                + " prediction (a test plug-in; calls no model)", (client, options, text) -> (in, ctx) ->
                                new Verdict(in.goldAnswers().stream().anyMatch(g -> in.prediction().toLowerCase()
                                        .contains(g.toLowerCase())) ? Outcome.CORRECT : Outcome.INCORRECT, List.of(), "")));
                    }
                }
                """;
        String command = """
                package example.kinds;

                import dev.veracity.cli.CommandProvider;
                import java.util.List;
                import picocli.CommandLine.Command;

                public final class Commands implements CommandProvider {
                    @Command(name = "hello", description = "Says hello (a test plug-in).")
                    public static final class Hello implements Runnable {
                        @Override public void run() { System.out.println("hello from a plug-in"); }
                    }
                    @Override public List<Class<?>> commands() { return List.of(Hello.class); }
                }
                """;
        String recipe = """
                package example.kinds;

                import dev.veracity.eval.recipe.RecipeProvider;
                import java.io.InputStream;
                import java.nio.charset.StandardCharsets;
                import java.util.List;

                public final class Recipes implements RecipeProvider {
                    @Override public List<Entry> recipes() {
                        try (InputStream in = Recipes.class.getClassLoader().getResourceAsStream("recipes/madam-table2.yaml")) {
                            String yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                            return List.of(new Entry("plugin-table", yaml.replace("name: madam-table2", "name: plugin-table")
                                    .replace("MADAM-RAG, Table 2:", "A plug-in's table:")));
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }
                }
                """;
        PluginJar.build(d.resolve("kinds.jar"), Map.of("example.kinds.Datasets", dataset, "example.kinds.Brevity", reward,
                        "example.kinds.Judges", judge, "example.kinds.Commands", command, "example.kinds.Recipes", recipe),
                Map.of("dev.veracity.eval.data.DatasetProvider", List.of("example.kinds.Datasets"),
                        "dev.veracity.rl.reward.RewardProvider", List.of("example.kinds.Brevity"),
                        "dev.veracity.eval.judge.JudgeProvider", List.of("example.kinds.Judges"),
                        "dev.veracity.cli.CommandProvider", List.of("example.kinds.Commands"),
                        "dev.veracity.eval.recipe.RecipeProvider", List.of("example.kinds.Recipes")));
        return d;
    }

    @Test
    void aPluginsDatasetRewardJudgeRecipeAndCommandAreFoundWhereTheBuiltInOnesAre() throws Exception {
        Path plugins = everyKind();
        Path data = dir.resolve("pairs.jsonl");
        Files.writeString(data, """
                {"key": "k1", "q": "capital of france", "a": "Paris"}
                {"key": "k2", "q": "capital of italy", "a": "Rome"}
                """);
        Rule answer = Rule.of("(?s).*capital of (france|italy).*", m -> m.group(1).equals("france") ? "Paris" : "Milan");
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(answer).build())) {
            CliRun.Result r = CliRun.run("eval", "--plugins", plugins.toString(), "--method", "no-rag", "--dataset",
                    "pairs", "--data", data.toString(), "--out", dir.resolve("run").toString(), "--llm-base-url",
                    sim.baseUrl(), "--model", "sim-model", "--cache", "off", "--judge", "substring-judge");
            assertThat(r.code()).as(r.err()).isZero();
        }
        JsonNode summary = JSON.readTree(dir.resolve("run/summary.json").toFile());
        assertThat(summary.get("dataset").asText()).isEqualTo("qa-pairs"); // the alias runs as its dataset
        assertThat(summary.at("/metrics_n/em").asInt()).isEqualTo(2);
        assertThat(summary.at("/judge/name").asText()).isNotEmpty();
        assertThat(summary.at("/judge/n").asInt()).isEqualTo(2);

        Path in = dir.resolve("rewards.jsonl");
        Files.writeString(in, """
                {"question": "q", "response": "Paris", "label": "Paris"}
                {"question": "q", "response": "It is Paris", "label": "Paris"}
                """);
        CliRun.Result scored = CliRun.run("reward", "one-word", "--plugins", plugins.toString(), "--in", in.toString(),
                "--out", dir.resolve("scored.jsonl").toString());
        assertThat(scored.code()).as(scored.err()).isZero();
        assertThat(JSON.readTree(scored.out().strip()).get("mean").asDouble()).isEqualTo(0.5);

        CliRun.Result hello = CliRun.run("--plugins", plugins.toString(), "hello");
        assertThat(hello.code()).as(hello.err()).isZero();
        assertThat(hello.out()).contains("hello from a plug-in");
        assertThat(CliRun.run("--plugins", plugins.toString(), "--help").out()).contains("hello").contains("Says hello");

        CliRun.Result recipes = CliRun.run("reproduce", "--list", "--plugins", plugins.toString());
        assertThat(recipes.code()).as(recipes.err()).isZero();
        assertThat(recipes.out()).contains("madam-table2").contains("plugin-table").contains("A plug-in's table");
        assertThat(recipes.out().indexOf("plugin-table")).as("built-ins first").isGreaterThan(recipes.out().indexOf("madam-table2"));

        // without the folder none of them exists
        assertThat(CliRun.run("reproduce", "--list").out()).doesNotContain("plugin-table");
        assertThat(CliRun.run("reward", "one-word", "--in", in.toString(), "--out", dir.resolve("x.jsonl").toString())
                .err()).contains("unknown reward 'one-word'");
        assertThat(CliRun.run("hello").code()).isEqualTo(2);
    }
}
