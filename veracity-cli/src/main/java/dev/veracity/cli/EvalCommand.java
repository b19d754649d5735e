package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.judge.Judge;
import dev.veracity.eval.judge.JudgeOptions;
import dev.veracity.eval.judge.JudgePrompt;
import dev.veracity.eval.judge.Judges;
import dev.veracity.eval.run.DatasetProfile;
import dev.veracity.eval.run.DocumentSource;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.methods.march.MarchMethod;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.lucene.LuceneIndex;
import dev.veracity.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ./veracity eval}: a method over a dataset, resumable, with the dataset's official metrics. */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = "Run a method over a dataset and score it. Killed and started again with the same --out, it"
                + " finishes only the missing questions.")
final class EvalCommand implements Callable<Integer> {

    @Option(names = "--method", required = true, paramLabel = "NAME", description = "Method: ${COMPLETION-CANDIDATES}.",
            completionCandidates = MethodNames.class)
    String method;

    @Option(names = "--dataset", required = true, paramLabel = "NAME", description = "Dataset format: ${COMPLETION-CANDIDATES}.",
            completionCandidates = DatasetNames.class)
    String dataset;

    @Option(names = "--data", required = true, paramLabel = "FILE", description = "The dataset file (its release format).")
    Path data;

    int limit;

    @Spec
    CommandSpec commandSpec;

    @Option(names = "--limit", defaultValue = "0", paramLabel = "N", description = "Only the first N questions (0 = all).")
    void limit(int n) {
        if (n < 0) {
            throw new ParameterException(commandSpec.commandLine(), "--limit must be >= 0, was " + n);
        }
        limit = n;
    }

    @Option(names = "--out", required = true, paramLabel = "DIR",
            description = "Output folder: results.jsonl, summary.json, traces.db.")
    Path out;

    @Option(names = "--metric", split = ",", paramLabel = "NAME",
            description = "Metrics (default: the dataset's official ones), e.g. em,f1.")
    List<String> metrics;

    @Option(names = "--option", paramLabel = "KEY=VALUE", description = "Method option, e.g. --option k=21.")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--questions-at-once", paramLabel = "N",
            description = "Questions answered at once (default: --concurrency).")
    Integer questionsAtOnce;




    @Option(names = "--judge", paramLabel = "NAME",
            description = "Also score each prediction with an LLM judge: crag (TruthRL/CRAG), true-false (C-3PO) or"
                    + " equivalence. The truthfulness metrics then take correctness from it, in TruthRL's order (exact"
                    + " match, abstention, no box and \"invalid question\" first, then the judge gold by gold).")
    String judgeName;

    @Option(names = "--judge-prompt", paramLabel = "TEXT",
            description = "The crag judge's text: authors (their released prompts.py: system message with their CRAG"
                    + " examples; the default) or paper (the paper's Table 11).")
    String judgePrompt;

    @Option(names = "--judge-model", paramLabel = "NAME", description = "Model for the judge (default: --model).")
    String judgeModel;

    @Option(names = "--judge-samples", defaultValue = "1", paramLabel = "K",
            description = "Judge samples per verdict, majority vote (default ${DEFAULT-VALUE}; MARCH's protocol votes over 8).")
    int judgeSamples;

    @Option(names = "--truncated", defaultValue = "fail", paramLabel = "fail|keep",
            converter = TruncationPolicyConverter.class,
            description = "An answer read from an output its token limit cut (finish_reason length): fail records the"
                    + " question as failed (kind TRUNCATED), keep scores it as the method read it; either way the line"
                    + " is marked and summary.json counts it (default ${DEFAULT-VALUE}).")
    dev.veracity.eval.run.Truncation.Policy truncated;

    static final class TruncationPolicyConverter implements picocli.CommandLine.ITypeConverter<dev.veracity.eval.run.Truncation.Policy> {
        @Override
        public dev.veracity.eval.run.Truncation.Policy convert(String value) {
            for (dev.veracity.eval.run.Truncation.Policy p : dev.veracity.eval.run.Truncation.Policy.values()) {
                if (p.label().equals(value.strip().toLowerCase(java.util.Locale.ROOT))) {
                    return p;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not fail or keep");
        }
    }

    @Option(names = "--no-preflight", description = "Skip the check of the model server (GET /models) before the run.")
    boolean noPreflight;

    @Option(names = "--sample", paramLabel = "N", description = "N questions drawn as the papers' code draws them:"
            + " CPython's random.Random(--sample-seed).shuffle(range(--sample-range)) over the file's questions, the"
            + " first N (ReAct and Reasoning Court: 500, seed 233, range 7405); --limit then takes the first of those.")
    Integer sampleSize;

    @Option(names = "--sample-seed", defaultValue = "0", paramLabel = "SEED", description = "The sample's seed (default ${DEFAULT-VALUE}).")
    long sampleSeed;

    @Option(names = "--sample-range", defaultValue = "0", paramLabel = "N",
            description = "Indices shuffled (default 0: the file's question count).")
    int sampleRange;

    /** Set by {@code reproduce}: no summary or table printed (it prints its own), the progress bar stays. */
    boolean quiet;

    /**
     * Set by {@code reproduce --simulator}: what run.json records as the server instead of its URL, whose port changes
     * with every start of the in-process simulator (a second reproduce resumes its run folders).
     */
    String serverLabel;

    @Option(names = "--force", description = "Start the run in --out over (its results, summary and traces are deleted)"
            + " instead of refusing a folder that holds a run of another configuration.")
    boolean force;

    @Mixin
    RetrievalOptions retrieval;

    @Mixin
    ModelOptions model;

    @Mixin
    ProxyOptions proxy;

    static final class MethodNames extends java.util.ArrayList<String> {
        MethodNames() {
            super(Methods.names());
        }
    }

    static final class DatasetNames extends java.util.ArrayList<String> {
        DatasetNames() {
            super(Datasets.names());
        }
    }

    /**
     * A method whose agents act in a Wikipedia, without --pages: the question's own paragraphs are its pages, so a
     * dataset whose questions come without any (HotpotQA simplified, FEVER) stops here with what to pass.
     */
    private void requirePagesOrParagraphs(QaMethod m) {
        java.util.Optional<dev.veracity.qa.QaItem> first;
        try (var items = Datasets.stream(dataset, data)) {
            first = items.findFirst();
        }
        if (first.isPresent() && first.get().documents().isEmpty()) {
            throw new IllegalArgumentException("method " + m.name() + "'s agents search a Wikipedia and " + dataset
                    + " questions come without paragraphs: build a page store (./veracity index --pages --corpus FILE"
                    + " --format hotpotqa-abstracts|kilt|fever|jsonl --out DIR) and pass --pages DIR");
        }
    }

    @Override
    public Integer call() throws Exception {
        dev.veracity.eval.run.RunLock.requireFree(out); // another eval writing there: refused before any work
        if (questionsAtOnce != null && questionsAtOnce < 1) {
            throw new IllegalArgumentException("--questions-at-once must be >= 1, was " + questionsAtOnce);
        }
        if (judgeSamples < 1) {
            throw new IllegalArgumentException("--judge-samples must be >= 1, was " + judgeSamples);
        }
        QaMethod m = Methods.byName(method);
        // Checked against the method's declaration before anything runs; the method and the run see the resolved map.
        Map<String, String> resolved = m.spec().resolve(options).values();
        Capability.requireProvided(m.spec()); // a plug-in's need no runner here meets
        if (m.needs(Capability.RETRIEVER) && !retrieval.given()) {
            throw new IllegalArgumentException("method " + method + " searches: build an index with ./veracity index and"
                    + " pass --index DIR");
        }
        dataset = Datasets.spec(dataset).name(); // an alias runs, is scored and is prompted as its dataset
        if (!Files.isRegularFile(data)) {
            throw new IllegalArgumentException("no dataset file at " + data);
        }
        if (limit < 0) {
            throw new IllegalArgumentException("--limit must be >= 0");
        }
        if (judgeName != null) {
            Judges.requireKnown(judgeName);
        } else if (judgePrompt != null) {
            throw new IllegalArgumentException("--judge-prompt sets the judge's text: name the judge too (--judge crag)");
        }
        JudgePrompt judgeText = judgePrompt == null ? JudgePrompt.AUTHORS : JudgePrompt.byName(judgePrompt);
        retrieval.validate();
        // a page store that is none (or --pages with a method that reads no pages) stops here, before any model call
        dev.veracity.retrieval.react.PageStore pageStore = retrieval.openPages(m);
        if (m.needs(Capability.PAGES) && pageStore == null && !retrieval.given()) {
            requirePagesOrParagraphs(m);
        } else if (!retrieval.given() && pageStore == null) {
            // a RAG method on a dataset without passages and without --index stops here, before any model call
            DocumentSource.dataset().requireDocuments(m, dataset, data);
        }
        VeracityConfig base = model.resolve();
        // the server is checked while the dataset is hashed and read (a round trip saved from the start-up)
        java.util.concurrent.CompletableFuture<Void> preflight = noPreflight
                ? java.util.concurrent.CompletableFuture.completedFuture(null)
                : java.util.concurrent.CompletableFuture.runAsync(() -> {
                    Preflight.check(base);
                    proxy.preflight(base);
                }, runnable -> Thread.ofVirtual().name("preflight").start(runnable));
        dev.veracity.eval.run.QuestionSample sample = sampleSize == null ? null
                : new dev.veracity.eval.run.QuestionSample(sampleSize, sampleSeed, sampleRange);
        DatasetProfile profile = DatasetProfile.of(dataset).withMetrics(metrics);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("method", m.name());
        fields.put("method_options", resolved);
        fields.put("dataset", dataset);
        fields.put("data", data.toAbsolutePath().normalize().toString());
        fields.put("data_sha256", RunConfig.sha256(data));
        if (sample != null) {
            fields.put("sample", sample.describe()); // recorded only when used: earlier run folders stay resumable
        }
        fields.put("metrics", profile.metrics());
        fields.put("model", base.model());
        fields.put("llm_base_url", serverLabel != null ? serverLabel : base.llmBaseUrl());
        fields.put("documents", retrieval.describe());
        if (pageStore != null) {
            fields.put("pages", retrieval.describePages(pageStore));
        }
        if (proxy.given()) {
            fields.put("proxy", proxy.describe(base));
        }
        if (truncated == dev.veracity.eval.run.Truncation.Policy.KEEP) {
            fields.put("truncated", truncated.label()); // recorded only when not the default: earlier runs stay resumable
        }
        fields.put("judge", judgeName == null ? "none" : judgeName + " model=" + (judgeModel == null ? base.model() : judgeModel)
                + " samples=" + judgeSamples + " prompt=" + judgeText.label()); // the judged metrics depend on each
        // every mistake caught before the first model call: the questions read, the server and model checked
        try (var items = Datasets.stream(dataset, data)) {
            if (sample != null) {
                sample.select(items.toList()); // a sample the file cannot give stops here
            } else {
                (limit > 0 ? items.limit(limit) : items).forEach(i -> { });
            }
        }
        try {
            preflight.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        RunConfig runConfig = new RunConfig(fields);
        runConfig.check(out, force); // one run per folder: refused before anything is written when it differs
        boolean createdOut = !Files.exists(out);
        boolean createdLock = !Files.exists(out.resolve(dev.veracity.eval.run.RunLock.FILE));
        boolean freshClaim = force || !Files.exists(out.resolve(RunConfig.FILE));
        try (dev.veracity.eval.run.RunLock lock = dev.veracity.eval.run.RunLock.acquire(out)) {
            runConfig.claim(out, force);
            try {
                return run(m, resolved, base, profile, pageStore, sample, runConfig, judgeText);
            } catch (Exception | Error e) {
                if (freshClaim) { // refused before its first answer (an index that is none): leave nothing behind
                    RunConfig.abandon(out, createdOut, createdLock);
                }
                throw e;
            }
        }
    }

    /**
     * What a run stopped by Ctrl-C (or SIGTERM) tells: the questions kept, where, and the command that goes on from
     * there (a SIGKILL leaves the same folder, without the message).
     */
    String interrupted(EvalRunner.Progress p) {
        String kept = p == null ? "no question answered yet" : p.done() + " of " + p.total() + " questions answered";
        String resume = quiet ? "run the same command again" : "resume with the same command: " + commandLine();
        return "\nInterrupted: " + kept + ", kept in " + out.resolve("results.jsonl") + " (no summary.json yet: compare"
                + " and report read the run as partial); " + resume;
    }

    /** This command as it was typed (each argument quoted for a POSIX shell where needed). */
    private String commandLine() {
        List<String> args = commandSpec == null || commandSpec.commandLine().getParseResult() == null ? List.of()
                : commandSpec.commandLine().getParseResult().originalArgs();
        StringBuilder b = new StringBuilder("./veracity");
        for (String a : args) {
            b.append(' ').append(a.matches("[A-Za-z0-9_./:=@%+,-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return b.toString();
    }

    /** The run itself, in the claimed and locked folder. */
    private Integer run(QaMethod m, Map<String, String> resolved, VeracityConfig base, DatasetProfile profile,
                        dev.veracity.retrieval.react.PageStore pageStore, dev.veracity.eval.run.QuestionSample sample,
                        RunConfig runConfig, JudgePrompt judgeText) throws Exception {
        // The run folder keeps its own traces, so that a report reads one place.
        VeracityConfig cfg = base.withTraceFile(out.resolve("traces.db"));
        MarchRecords records = m instanceof MarchMethod ? new MarchRecords(out.resolve("march-records.jsonl"),
                String.valueOf(out.toAbsolutePath().normalize().getFileName())) : null;
        if (records != null) {
            m = new MarchMethod(records);
        }
        String traceRun = out.toAbsolutePath().normalize().getFileName() + "@" + Instant.now();
        EvalRunner.Outcome outcome;
        dev.veracity.retrieval.Embedder embedder = retrieval.embedder(m);
        try (LuceneIndex searchIndex = retrieval.open();
             dev.veracity.retrieval.react.PageStore pagesOpen = pageStore;
             TraceStore store = TraceStore.open(cfg.traceFile())) {
            EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(store);
            try (Stack stack = new Stack(cfg, traces);
                 ProxyOptions.Proxy proxyClient = proxy.open(stack, traces);
                 EvalProgress bar = EvalProgress.start(method + " on " + dataset, limit)) {
                Judge judge = judgeName == null ? null : Judges.byName(judgeName, stack.client,
                        new JudgeOptions(judgeSamples, judgeSamples > 1 ? 0.7 : 0.0, null, judgeModel), judgeText);
                Retriever retriever = retrieval.retriever(searchIndex, embedder);
                DocumentSource documents = retrieval.source(searchIndex, retriever);
                EvalRunner.Spec spec = new EvalRunner.Spec(m, dataset, data, limit, out,
                        questionsAtOnce != null ? questionsAtOnce : cfg.concurrency(), profile, resolved,
                        EvalRunner.labels("model", cfg.model(), "llm_base_url", cfg.llmBaseUrl(),
                                "concurrency", String.valueOf(cfg.concurrency()),
                                "timeout_seconds", String.valueOf(cfg.timeout().toSeconds()),
                                "cache", cfg.cacheMode().name().toLowerCase(java.util.Locale.ROOT)),
                        retriever, embedder, judge, documents, runConfig.json(), pagesOpen, sample, truncated);
                java.util.concurrent.atomic.AtomicReference<EvalRunner.Progress> progress =
                        new java.util.concurrent.atomic.AtomicReference<>();
                Thread interrupted = new Thread(() -> System.err.println(interrupted(progress.get())), "eval-interrupted");
                Runtime.getRuntime().addShutdownHook(interrupted); // Ctrl-C: what was kept and how to go on
                try {
                    outcome = EvalRunner.run(spec, stack.client, ProxyOptions.clients(proxyClient), traces, traceRun,
                            p -> {
                                progress.set(p);
                                bar.accept(p);
                            });
                } finally {
                    try {
                        Runtime.getRuntime().removeShutdownHook(interrupted);
                    } catch (IllegalStateException shuttingDown) {
                        // the hook runs
                    }
                }
            }
        }
        if (!quiet) {
            System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(outcome.summary()));
            // The run as `veracity compare` shows it: metrics with n and 95% bootstrap intervals.
            System.out.print(dev.veracity.eval.report.ComparisonTable.of(
                    List.of(dev.veracity.eval.report.RunDir.load(out))).text());
        }
        System.err.printf("%d questions: %d already done, %d answered now, %d failed. Results in %s%n", outcome.total(),
                outcome.alreadyDone(), outcome.answered(), outcome.failures().size(), out.resolve("results.jsonl"));
        if (records != null) {
            records.close();
            System.err.println("MARCH training records (Solver and Checker trajectories with ZTR): " + records.file());
        }
        if (!outcome.failures().isEmpty()) {
            outcome.failures().stream().limit(10).forEach(f -> System.err.println("  failed " + f));
            System.err.println("Run the same command again to retry the failed questions; finished ones are kept.");
            return 1;
        }
        return 0;
    }
}
