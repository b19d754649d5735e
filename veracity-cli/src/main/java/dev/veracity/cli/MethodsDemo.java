package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.report.ComparisonTable;
import dev.veracity.eval.report.RunDir;
import dev.veracity.eval.run.DatasetProfile;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.retrieval.embed.OnnxEmbedder;
import dev.veracity.trace.TraceStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every registered method on the same questions (20 RAMDocs questions bundled with the CLI, or the user's file),
 * each into its own run folder through the evaluation runner, then the comparison table {@code compare} prints.
 * Against the simulator's built-in extractive reader the numbers measure plumbing, not model quality.
 */
final class MethodsDemo {

    static final String DATA = "demo/ramdocs-20.jsonl";
    static final String DATASET = "ramdocs";

    private MethodsDemo() {
    }

    /**
     * Runs the methods and prints the table.
     *
     * @param cfg       the model stack's configuration (the simulator, or the user's server)
     * @param simulated whether the server is the built-in simulator (the table then says what its numbers mean)
     * @param out       run folders go to {@code out/<method>}; started over on every demo
     * @param data      the questions (null: the bundled 20)
     * @param methods   the methods to run (empty: every registered one)
     * @param limit     the first questions of the file (0 = all)
     */
    static int run(PrintStream print, VeracityConfig cfg, boolean simulated, Path out, Path data, List<String> methods,
                   int limit) throws IOException {
        Files.createDirectories(out);
        Path questions = data != null ? data : bundled(out);
        List<String> names = methods.isEmpty() ? List.copyOf(Methods.names()) : methods;
        names.forEach(Methods::byName); // an unknown name stops here, before any call
        print.printf(Locale.ROOT, "Veracity demo: %d methods on %s, %s, model %s%n", names.size(),
                data != null ? questions : "20 RAMDocs questions (bundled)",
                simulated ? "simulator at " + cfg.llmBaseUrl() + " with its built-in extractive reader"
                        : "server " + cfg.llmBaseUrl(), cfg.model());
        List<Path> runs = new ArrayList<>();
        int failed = 0;
        OnnxEmbedder embedder = null;
        {
            for (String name : names) {
                QaMethod m = Methods.byName(name);
                Path dir = out.resolve(name);
                if (m.needs(Capability.EMBEDDER) && embedder == null) {
                    embedder = OnnxEmbedder.bgeSmall();
                }
                Map<String, String> options = m.spec().resolve(Map.of()).values();
                VeracityConfig runCfg = cfg.withTraceFile(dir.resolve("traces.db"));
                long t0 = System.nanoTime();
                EvalRunner.Outcome o;
                // as eval does: one writer per folder, held while the folder is cleared and answered
                try (dev.veracity.eval.run.RunLock lock = dev.veracity.eval.run.RunLock.acquire(dir)) {
                    RunConfig.clear(dir); // a demo starts over: old answers of another server must not mix in
                    try (TraceStore store = TraceStore.open(runCfg.traceFile())) {
                        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(store);
                        try (Stack stack = new Stack(runCfg, traces)) {
                            EvalRunner.Spec spec = new EvalRunner.Spec(m, DATASET, questions, limit, dir, cfg.concurrency(),
                                    DatasetProfile.of(DATASET), options, EvalRunner.labels("model", cfg.model(),
                                    "llm_base_url", cfg.llmBaseUrl(), "demo", simulated ? "simulator, built-in reader" : "server"),
                                    null, m.needs(Capability.EMBEDDER) ? embedder : null, null, null);
                            o = EvalRunner.run(spec, stack.client, traces, name + "@" + Instant.now(), p -> { });
                        }
                    }
                }
                failed += o.failures().size();
                print.printf(Locale.ROOT, "  %-16s %3d questions in %5.1f s%s%n", name, o.total(),
                        (System.nanoTime() - t0) / 1e9, o.failures().isEmpty() ? "" : ", " + o.failures().size() + " failed");
                runs.add(dir);
            }
        }
        print.println();
        print.print(ComparisonTable.of(runs.stream().map(RunDir::load).toList()).text());
        if (simulated) {
            print.println("These numbers come from the simulator's extractive reader (sentence overlap with the question):"
                    + " they measure plumbing, not model quality.");
            print.println("Point the demo at a real model: ./veracity demo --llm-base-url http://HOST:8000/v1 --model NAME");
        }
        print.println("Runs in " + out + "; the report: ./veracity report " + out + "/* --out " + out.resolve("report"));
        return failed == 0 ? 0 : 1;
    }

    private static Path bundled(Path out) throws IOException {
        return copyBundled(out.resolve("ramdocs-20.jsonl"));
    }

    /** Copies the bundled 20 questions to {@code file} (the demo's and {@code bench madam}'s default data). */
    static Path copyBundled(Path file) throws IOException {
        try (InputStream in = MethodsDemo.class.getResourceAsStream(DATA)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException("the bundled demo questions " + DATA + " are missing"));
            }
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
        return file;
    }
}
