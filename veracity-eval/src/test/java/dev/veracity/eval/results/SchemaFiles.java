package dev.veracity.eval.results;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JSON Schemas of a run's files ({@code docs/schema/}) and the check of a run folder against them
 * ({@link #checkRunFolder}): {@code ResultsSchemaTest} runs it on an eval it scripts, and the CLI's tests on every run
 * folder a successful {@code eval}, {@code demo} or {@code reproduce} writes through {@code CliRun} (in the test-jar);
 * {@link #checkRolloutFolder} the folders a C-3PO rollout writes (the rollout's tests and the CLI's).
 */
public final class SchemaFiles {

    public static final String RESULTS_LINE = "results-line.schema.json";
    public static final String SUMMARY = "summary.schema.json";
    public static final String RUN = "run.schema.json";
    public static final String AGENT_RECORD = "agent-record.schema.json";
    public static final String ROLLOUT_TREE = "rollout-tree.schema.json";

    private static final String ID_PREFIX = "https://veracity.dev/schema/";
    private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();

    private SchemaFiles() {
    }

    /** The repository's {@code docs/schema} folder, found from the module's working directory up. */
    public static Path folder() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path d = p.resolve("docs/schema");
            if (Files.isDirectory(d)) {
                return d;
            }
        }
        throw new IllegalStateException("no docs/schema above " + Path.of("").toAbsolutePath());
    }

    private static Schema schema(String name) {
        return SCHEMAS.computeIfAbsent(name, n -> {
            // the schemas' ids (and the summary's $ref to run.schema.json) read from the folder, never fetched
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    b -> b.schemas(iri -> iri.startsWith(ID_PREFIX) ? read(folder().resolve(iri.substring(ID_PREFIX.length())))
                            : null));
            return registry.getSchema(SchemaLocation.of(ID_PREFIX + n));
        });
    }

    /** What is wrong with {@code json} by the schema {@code name}: none when it validates. */
    public static List<String> errors(String name, String json) {
        List<String> out = new ArrayList<>();
        for (Error e : schema(name).validate(json, InputFormat.JSON)) {
            out.add(name + ": " + e);
        }
        return out;
    }

    /**
     * What is wrong with a run folder's files: each line of {@code results.jsonl}, {@code summary.json},
     * {@code run.json} and each line of {@code march-records.jsonl}, where present.
     */
    public static List<String> checkRunFolder(Path dir) {
        List<String> out = new ArrayList<>();
        lines(dir.resolve("results.jsonl")).forEach(l -> out.addAll(errors(RESULTS_LINE, l)));
        lines(dir.resolve("march-records.jsonl")).forEach(l -> out.addAll(errors(AGENT_RECORD, l)));
        for (Map.Entry<String, String> f : Map.of("summary.json", SUMMARY, "run.json", RUN).entrySet()) {
            Path file = dir.resolve(f.getKey());
            if (Files.isRegularFile(file)) {
                out.addAll(errors(f.getValue(), read(file)));
            }
        }
        return out;
    }

    /**
     * What is wrong with a rollout folder's files ({@code veracity rollout c3po}): each line of {@code trees.jsonl}
     * and each line of {@code records.jsonl} (agent records).
     */
    public static List<String> checkRolloutFolder(Path dir) {
        List<String> out = new ArrayList<>();
        lines(dir.resolve("trees.jsonl")).forEach(l -> out.addAll(errors(ROLLOUT_TREE, l)));
        lines(dir.resolve("records.jsonl")).forEach(l -> out.addAll(errors(AGENT_RECORD, l)));
        return out;
    }

    private static List<String> lines(Path file) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        return read(file).lines().filter(l -> !l.isBlank()).toList();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
