package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.report.ComparisonTable;
import dev.veracity.eval.report.RunDir;
import dev.veracity.eval.run.EvalJob;
import dev.veracity.eval.run.EvalJobRunner;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.eval.run.JobDocuments;
import dev.veracity.llm.openai.OpenAiEmbedder;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every registered method on the same questions (20 RAMDocs questions bundled with the CLI, or the user's file),
 * each into its own run folder through the evaluation runner, then the comparison table {@code compare} prints.
 * Against the simulator's built-in extractive reader the numbers measure plumbing, not model quality.
 */
final class MethodsDemo {

    static final String DATA = "demo/ramdocs-20.jsonl";

    /** Where demos before the questions moved to {@code out/.data/} copied them: in the run folders' parent. */
    static final String STALE_DATA = "ramdocs-20.jsonl";
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
                   int limit) throws Exception {
        Files.createDirectories(out);
        Path questions = data != null ? data : bundled(out);
        List<String> names = methods.isEmpty() ? List.copyOf(Methods.names()) : methods;
        names.forEach(Methods::byName); // an unknown name stops here, before any call
        List<String> embedding = names.stream().filter(n -> Methods.byName(n).needs(Capability.EMBEDDER)).toList();
        if (!embedding.isEmpty() && !simulated) {
            LocalEmbedders.require(); // bge-small in process: without the embed part the demo stops here, not half-way
        }
        int width = Terminal.columns();
        print.print(dev.veracity.eval.report.TextTable.wrap(String.format(Locale.ROOT, "Veracity demo: %d methods on"
                + " %s, %s, model %s", names.size(), data != null ? questions : "20 RAMDocs questions (bundled)",
                simulated ? "simulator at " + cfg.llmBaseUrl() + " with its built-in extractive reader"
                        : "server " + cfg.llmBaseUrl(), cfg.model()), width, "", "  "));
        List<Path> runs = new ArrayList<>();
        int failed = 0;
        boolean embeds = !embedding.isEmpty();
        try (OpenAiEmbedder simEmbedder = embeds && simulated ? simulatorEmbedder(cfg) : null) {
            DemoDocuments documents = new DemoDocuments(simEmbedder);
            CliJobEnvironment env = new CliJobEnvironment(null, job -> CliJobEnvironment.silent());
            for (String name : names) {
                Path dir = out.resolve(name);
                long t0 = System.nanoTime();
                // a demo starts over (old answers of another server must not mix in), without a check of the server
                EvalJob job = EvalJob.builder(Methods.byName(name), DATASET, questions, dir).limit(limit).model(cfg)
                        .documents(documents).preflight(false).force(true)
                        .labels(EvalRunner.labels("model", cfg.model(), "llm_base_url", cfg.llmBaseUrl(),
                                "demo", simulated ? "simulator, built-in reader" : "server"))
                        .build();
                EvalRunner.Outcome o = EvalJobRunner.run(job, env).outcome();
                failed += o.failures().size();
                print.printf(Locale.ROOT, "  %-16s %3d questions in %5.1f s%s%n", name, o.total(),
                        (System.nanoTime() - t0) / 1e9, o.failures().isEmpty() ? "" : ", " + o.failures().size() + " failed");
                runs.add(dir);
            }
        }
        print.println();
        print.print(ComparisonTable.of(runs.stream().map(RunDir::load).toList()).text(width));
        if (simulated) {
            print.print(dev.veracity.eval.report.TextTable.wrap("These numbers come from the simulator's extractive"
                    + " reader (sentence overlap with the question): they measure plumbing, not model quality.", width));
            if (embeds) {
                print.print(dev.veracity.eval.report.TextTable.wrap(String.join(", ", embedding)
                        + " embedded documents on the simulator too (hashed bags of words).", width));
            }
            print.println("Point the demo at a real model:");
            print.println("  ./veracity demo --llm-base-url http://HOST:8000/v1 --model NAME");
        }
        // the report beside the runs, not among them: the next `report out/*` must not read it as a run; the command on
        // a line of its own, so that it fits the terminal where the folder's name does and is copied whole where not
        print.println("Runs in " + out + "; the report:");
        print.println("  ./veracity report " + out + "/* --out " + out + "-report");
        return failed == 0 ? 0 : 1;
    }

    /**
     * The demo's documents: the questions' own, and one embedder for every method that needs one: the simulator's when
     * the demo runs on it, else bge-small in process (the optional embed part), loaded once.
     */
    static final class DemoDocuments extends JobDocuments.OwnPassages {

        private Embedder embedder;

        DemoDocuments(Embedder simulator) {
            this.embedder = simulator;
        }

        @Override
        public Embedder embedder(QaMethod method) {
            if (method.needs(Capability.EMBEDDER) && embedder == null) {
                embedder = LocalEmbedders.bgeSmall(); // loaded once, for the first method that needs it
            }
            return method.needs(Capability.EMBEDDER) ? embedder : null;
        }
    }

    /**
     * On the simulator, methods that compare documents by embedding (speculative-rag) embed there too: its
     * {@code /v1/embeddings} gives hashed bags of words, near for texts that share words, so the demo runs every method
     * without the optional embed part (and without loading a model). Against a server they use bge-small in process.
     */
    static OpenAiEmbedder simulatorEmbedder(VeracityConfig cfg) {
        return OpenAiEmbedder.builder(cfg.llmBaseUrls().getFirst(), cfg.model()).build();
    }

    /**
     * The bundled questions, copied under {@code out/.data/}: hidden, so that {@code out/*} (the README's
     * {@code report .veracity/demo/*} and {@code compare}) names the run folders only. The copy an earlier version
     * left in {@code out/} itself ({@link #STALE_DATA}) is removed, or that glob would name it for upgrading users.
     */
    private static Path bundled(Path out) throws IOException {
        Path stale = out.resolve(STALE_DATA);
        if (Files.isRegularFile(stale, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(stale);
        }
        return copyBundled(Files.createDirectories(out.resolve(".data")).resolve("ramdocs-20.jsonl"));
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
