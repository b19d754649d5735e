package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Shared;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standard error carries only what the user needs: {@code index}, {@code search}, {@code eval --index} and
 * {@code sim --help}, each in a JVM of its own started with the launcher's JVM flags (read from {@code ./veracity}),
 * print no warning of the JVM (incubator modules, restricted methods), of Lucene's logging or of picocli. The same run
 * shows the habits eval shares with the tools people know: {@code --data} found as {@code datasets list} finds it, the
 * {@code --limit} line, and {@code traces} reading the run from its folder or a short id.
 */
class QuietStderrTest {

    /** What a warning looks like on stderr: the JVM's and picocli's prefixes, java.util.logging's record header. */
    static final Pattern WARNING = Pattern.compile("(?i)(\\bwarn(ing)?\\b|\\bsevere\\b|incubator|restricted method"
            + "|sun\\.misc\\.Unsafe|^[A-Z][a-z]{2} \\d{1,2}, \\d{4} \\d{1,2}:\\d{2}:\\d{2})");

    @TempDir
    Path dir;

    /**
     * The launcher adds no module by default (the incubator module's warning cannot be silenced); the Vector API only
     * when the user asks for it (VERACITY_VECTOR_API=1, README). Its other flags are the JVM's here (CliProcess).
     */
    static void launcherAddsNoModule() throws Exception {
        List<String> lines = Files.readString(CliProcess.LAUNCHER).lines().filter(l -> !l.strip().startsWith("#")).toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("--add-modules")) {
                assertThat(lines.subList(Math.max(0, i - 2), i)).as("the line adding " + lines.get(i))
                        .anyMatch(l -> l.contains("if [ \"${VERACITY_VECTOR_API:-0}\" = 1 ]"));
            }
        }
    }

    private static List<String> warnings(CliProcess.Ran ran) {
        return ran.err().lines().filter(l -> WARNING.matcher(l).find()).toList();
    }

    private CliProcess.Ran veracity(Map<String, String> env, String... args) throws Exception {
        launcherAddsNoModule();
        return CliProcess.run(System.getProperty("java.class.path"), dir, env, args);
    }

    @Test
    void indexSearchEvalWithAnIndexAndSimHelpPrintNoWarning() throws Exception {
        Path cache = dir.resolve("datasets");
        Files.createDirectories(cache.resolve("ramdocs"));
        Path ramdocs = Files.copy(Shared.data("ramdocs/RAMDocs_test.jsonl"), cache.resolve("ramdocs/RAMDocs_test.jsonl"));
        Map<String, String> env = Map.of("VERACITY_DATA", cache.toString());
        Path corpus = Files.writeString(dir.resolve("corpus.jsonl"), String.join("\n",
                "{\"id\": \"bow\", \"title\": \"Broken Bow\", \"text\": \"As of the census of 2010, there were 3,559 people in Broken Bow.\"}",
                "{\"id\": \"eiffel\", \"title\": \"Eiffel Tower\", \"text\": \"The tower is in Paris.\"}", ""));

        CliProcess.Ran index = veracity(env, "index", "--corpus", corpus.toString(), "--out", dir.resolve("idx").toString());
        assertThat(index.code()).as(index.err()).isZero();
        assertThat(warnings(index)).as("index's stderr").isEmpty();

        CliProcess.Ran search = veracity(env, "search", "--index", dir.resolve("idx").toString(), "-k", "2", "population of Broken Bow");
        assertThat(search.code()).as(search.err()).isZero();
        assertThat(search.out()).contains("bow");
        assertThat(warnings(search)).as("search's stderr").isEmpty();

        CliProcess.Ran help = veracity(env, "sim", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("+-10% (default 0: exact).");
        assertThat(help.err()).as("sim --help's stderr").isEmpty();

        // Three questions at once, each call 40 ms on the simulator: the calls overlap.
        Path run = dir.resolve("run");
        try (SimServer sim = SimServer.start(SimConfig.builder().latency(LatencyModel.ofMillis(40, 0)).build())) {
            CliProcess.Ran eval = veracity(env, "eval", "--method", "standard-rag", "--dataset", "ramdocs", "--limit", "3",
                    "--index", dir.resolve("idx").toString(), "--k", "2", "--out", run.toString(),
                    "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off");
            assertThat(eval.code()).as(eval.out() + eval.err()).isZero();
            assertThat(warnings(eval)).as("eval's stderr").isEmpty();
            // --data: the dataset's file as `datasets list` finds it; --limit: said before the run, in one line
            assertThat(eval.err()).contains("veracity eval: --data " + ramdocs + " (ramdocs's file, as `veracity datasets"
                    + " list` finds it)");
            assertThat(eval.err().lines()).contains("veracity eval: " + DatasetOptions.limitWarning(3));
            assertThat(new ObjectMapper().readTree(run.resolve("run.json").toFile()).get("data").asText())
                    .isEqualTo(ramdocs.toString());
        }

        // traces from the run folder, and from a short id (a prefix no other run shares)
        CliProcess.Ran stats = veracity(env, "traces", "stats", run.toString());
        assertThat(stats.code()).as(stats.err()).isZero();
        assertThat(warnings(stats)).isEmpty();
        String runLine = stats.out().lines().filter(l -> l.startsWith("run ")).findFirst().orElseThrow();
        // the table's columns, two spaces or more apart; "wall ms" and "critical path ms" are shown at any width
        List<String> header = List.of(stats.out().lines().findFirst().orElseThrow().split("\\s{2,}"));
        String[] cells = runLine.split("\\s{2,}");
        double wall = Double.parseDouble(cells[header.indexOf("wall ms")]);
        assertThat(Double.parseDouble(cells[header.indexOf("critical path ms")])).as("critical path against wall time: "
                + runLine).isPositive().isLessThanOrEqualTo(wall);
        String id = runLine.split("\\s+")[1];
        CliProcess.Ran byPrefix = veracity(env, "traces", "stats", id.substring(0, id.indexOf('@') + 5), "--trace-file",
                run.resolve("traces.db").toString());
        assertThat(byPrefix.code()).as(byPrefix.err()).isZero();
        assertThat(byPrefix.out()).contains(runLine);
        CliProcess.Ran export = veracity(env, "traces", "export", run.toString());
        assertThat(export.code()).as(export.err()).isZero();
        assertThat(export.out().lines()).hasSize(3);
    }

    /** What ./veracity runs when it builds: Maven (its Guice) prints no sun.misc.Unsafe warnings on JDK 24+. */
    @Test
    void theBuildPrintsNoUnsafeWarning() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Path err = dir.resolve("mvn.err");
        ProcessBuilder pb = new ProcessBuilder(root.resolve("mvnw").toString(), "-B", "-q", "-o", "-N", "validate")
                .directory(root.toFile()).redirectOutput(dir.resolve("mvn.out").toFile()).redirectError(err.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("mvnw validate did not finish in 180 s");
        }
        String stderr = Files.readString(err);
        assertThat(p.exitValue()).as(stderr).isZero();
        assertThat(stderr.lines().filter(l -> WARNING.matcher(l).find()).toList()).as("Maven's stderr").isEmpty();
    }
}
