package dev.veracity.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One run per folder: what an eval run's answers depend on (method and its resolved options, dataset and file,
 * metrics, model and server, documents, judge), kept in {@code run.json}. Started again with the same configuration
 * the run resumes; with another one it is refused before any work, so a summary never names one method over another
 * method's answers. {@code --limit} and concurrency are not part of it: a larger limit extends a run.
 */
final class RunConfig {

    static final String FILE = "run.json";
    /** What a run folder holds, removed by {@code --force}. */
    private static final List<String> RUN_FILES = List.of("results.jsonl", "summary.json", "traces.db", "traces.db-wal",
            "traces.db-shm", "march-records.jsonl", FILE, "summary.json.tmp", FILE + ".tmp");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ObjectNode config;

    RunConfig(Map<String, ?> fields) {
        this.config = JSON.valueToTree(fields);
    }

    ObjectNode json() {
        return config;
    }

    /**
     * Checks {@code out} against this configuration and records it there: a fresh folder gets {@code run.json}, a
     * folder of the same configuration resumes, another configuration is an error unless {@code force}, which
     * starts the run over.
     */
    void claim(Path out, boolean force) throws IOException {
        Path file = out.resolve(FILE);
        boolean hasResults = Files.exists(out.resolve("results.jsonl"));
        if (force) {
            clear(out);
        } else if (Files.exists(file)) {
            JsonNode stored;
            try {
                stored = JSON.readTree(file.toFile());
            } catch (IOException e) {
                throw new IllegalArgumentException(file + " is not readable (" + e.getMessage()
                        + "); use another --out, or --force to start the run over");
            }
            List<String> diff = differences(stored, config);
            if (!diff.isEmpty()) {
                throw new IllegalArgumentException("--out " + out + " holds a run of another configuration ("
                        + String.join("; ", diff) + "); use another --out, or --force to start it over");
            }
            return;
        } else if (hasResults) {
            throw new IllegalArgumentException("--out " + out + " holds results of a run whose configuration is not "
                    + "recorded; use another --out, or --force to start it over");
        }
        Files.createDirectories(out);
        // atomically: a kill while claiming must not leave a torn run.json that refuses the resume
        dev.veracity.eval.run.EvalRunner.writeJson(file, config);
    }

    /** Removes what a run left in {@code out} (results, summary, traces, records, run.json); other files stay. */
    static void clear(Path out) throws IOException {
        for (String f : RUN_FILES) {
            Files.deleteIfExists(out.resolve(f));
        }
    }

    /** SHA-256 (hex) of a file's bytes: a run records its dataset's, so an edited file is not resumed as the same. */
    static String sha256(Path file) throws IOException {
        return dev.veracity.eval.data.DatasetFetcher.sha256(file);
    }

    /** "key: stored -> now" for every field that differs. */
    static List<String> differences(JsonNode stored, JsonNode now) {
        List<String> out = new ArrayList<>();
        java.util.Set<String> keys = new java.util.LinkedHashSet<>();
        stored.fieldNames().forEachRemaining(keys::add);
        now.fieldNames().forEachRemaining(keys::add);
        for (String k : keys) {
            JsonNode a = stored.get(k);
            JsonNode b = now.get(k);
            if (a == null || b == null || !a.equals(b)) {
                out.add(k + ": " + (a == null ? "-" : a.toString()) + " -> " + (b == null ? "-" : b.toString()));
            }
        }
        return out;
    }
}
