package dev.veracity.eval.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.RunConfiguration;
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
public final class RunConfig {

    public static final String FILE = "run.json";
    /** What a run folder holds, removed by {@code --force}. */
    private static final List<String> RUN_FILES = List.of("results.jsonl", "summary.json", "traces.db", "traces.db-wal",
            "traces.db-shm", FILE, "summary.json.tmp", FILE + ".tmp");
    private final RunConfiguration config;

    /** The configuration from the fields a command gathered (run.json's names); a field it does not have is an error. */
    public RunConfig(Map<String, ?> fields) {
        JsonNode given = ResultsJson.tree(fields);
        RunConfiguration typed = ResultsJson.convert(fields, RunConfiguration.class);
        List<String> unknown = differences(given, ResultsJson.tree(typed));
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("run.json has no such field or shape: " + String.join("; ", unknown));
        }
        this.config = typed;
    }

    public RunConfiguration json() {
        return config;
    }

    /**
     * Checks {@code out} against this configuration and records it there: a fresh folder gets {@code run.json}, a
     * folder of the same configuration resumes, another configuration is an error unless {@code force}, which
     * starts the run over. Called under the folder's {@link RunLock}, after every check of the
     * command has passed ({@link #check} refuses another configuration before that, writing nothing).
     *
     * @param sideFiles the files the run's method writes beside its answers (a {@code TrainingRecords} method's
     *                  records), cleared with the run's own when {@code force} starts it over
     */
    public void claim(Path out, boolean force, List<String> sideFiles) throws IOException {
        if (force) {
            clear(out, sideFiles);
        } else if (check(out, false)) {
            return;
        }
        Files.createDirectories(out);
        // atomically: a kill while claiming must not leave a torn run.json that refuses the resume
        ResultsJson.write(out.resolve(FILE), config);
    }

    /**
     * Whether {@code out} holds a run of this configuration (true: it resumes) or none (false), writing nothing; a run
     * of another configuration, or results without a recorded configuration, is an error unless {@code force}.
     */
    public boolean check(Path out, boolean force) {
        Path file = out.resolve(FILE);
        boolean hasResults = Files.exists(out.resolve("results.jsonl"));
        if (force) {
            return false;
        } else if (Files.exists(file)) {
            RunConfiguration stored;
            try {
                stored = ResultsJson.runConfiguration(file);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(e.getMessage() + "; use another --out, or --force to start the run over");
            }
            // the schema version is not the run's configuration: a run.json written before it resumes
            List<String> diff = differences(ResultsJson.tree(stored.withSchemaVersion(null)), ResultsJson.tree(config));
            if (!diff.isEmpty()) {
                throw new IllegalArgumentException("--out " + out + " holds a run of another configuration ("
                        + String.join("; ", diff) + "); use another --out, or --force to start it over");
            }
            return true;
        } else if (hasResults) {
            throw new IllegalArgumentException("--out " + out + " holds results of a run whose configuration is not "
                    + "recorded; use another --out, or --force to start it over");
        }
        return false;
    }

    /**
     * Takes back a claim that answered nothing (the command failed before its first result line): its run files go,
     * with the lock file and the folder when this command created them, so that a corrected command is not refused by
     * a run.json of a run that never ran.
     */
    public static void abandon(Path out, boolean createdOut, boolean createdLock, List<String> sideFiles)
            throws IOException {
        Path results = out.resolve("results.jsonl");
        if (Files.exists(results) && Files.size(results) > 0) {
            return; // answers or failure records were written: the run resumes from them
        }
        clear(out, sideFiles);
        if (createdLock) {
            Files.deleteIfExists(out.resolve(RunLock.FILE));
        }
        if (createdOut) {
            try (var left = Files.list(out)) {
                if (left.findAny().isEmpty()) {
                    Files.deleteIfExists(out);
                }
            }
        }
    }

    /** Removes what a run left in {@code out} (results, summary, traces, run.json); other files stay. */
    public static void clear(Path out) throws IOException {
        clear(out, List.of());
    }

    /** As {@link #clear(Path)}, with the files the run's method wrote beside its answers ({@code sideFiles}). */
    public static void clear(Path out, List<String> sideFiles) throws IOException {
        for (String f : RUN_FILES) {
            Files.deleteIfExists(out.resolve(f));
        }
        for (String f : sideFiles) {
            Files.deleteIfExists(out.resolve(f));
        }
    }

    /** SHA-256 (hex) of a file's bytes: a run records its dataset's, so an edited file is not resumed as the same. */
    public static String sha256(Path file) throws IOException {
        return dev.veracity.eval.data.DatasetFetcher.sha256(file);
    }

    /**
     * "key: stored -> now" for every field that differs. The method's options compare by their text: a run.json
     * written before they were typed ({@code "k": "21"}) is the same configuration as {@code "k": 21}.
     */
    static List<String> differences(JsonNode stored, JsonNode now) {
        List<String> out = new ArrayList<>();
        java.util.Set<String> keys = new java.util.LinkedHashSet<>();
        stored.fieldNames().forEachRemaining(keys::add);
        now.fieldNames().forEachRemaining(keys::add);
        for (String k : keys) {
            JsonNode a = stored.get(k);
            JsonNode b = now.get(k);
            boolean same = a != null && b != null && (a.equals(b)
                    || (k.equals("method_options") && optionTexts(a).equals(optionTexts(b))));
            if (!same) {
                out.add(k + ": " + (a == null ? "-" : a.toString()) + " -> " + (b == null ? "-" : b.toString()));
            }
        }
        return out;
    }

    /** Each option's value as text: a number, a boolean or a list of them as their canonical spelling. */
    private static Map<String, String> optionTexts(JsonNode options) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (options == null || !options.isObject()) {
            return out;
        }
        options.properties().forEach(e -> {
            JsonNode v = e.getValue();
            String text;
            if (v.isArray()) {
                List<String> parts = new ArrayList<>();
                v.forEach(x -> parts.add(x.asText()));
                text = String.join(",", parts);
            } else {
                text = v.asText();
            }
            out.put(e.getKey(), text);
        });
        return out;
    }
}
