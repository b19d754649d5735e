package dev.veracity.cli;

import dev.veracity.eval.run.EvalJob;
import dev.veracity.eval.run.EvalJobRunner;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.eval.run.JobEnvironment;
import dev.veracity.eval.run.QuestionSample;
import dev.veracity.eval.run.RunLock;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./veracity eval}: a method over a dataset, resumable, with the dataset's official metrics. */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = "Run a method over a dataset and score it. Killed and started again with the same --out, it"
                + " finishes only the missing questions.")
final class EvalCommand implements Callable<Integer> {

    @Option(names = "--method", required = true, paramLabel = "NAME", description = "Method: ${COMPLETION-CANDIDATES}.",
            completionCandidates = MethodNames.class)
    String method;

    @Mixin
    DatasetOptions dataset;

    @Spec
    CommandSpec commandSpec;

    @Option(names = "--out", required = true, paramLabel = "DIR",
            description = "Output folder: results.jsonl, summary.json, traces.db.")
    Path out;

    @Option(names = "--metric", split = ",", paramLabel = "NAME",
            description = "Metrics (default: the dataset's official ones), e.g. em,f1.")
    List<String> metrics;

    @Option(names = "--option", paramLabel = "KEY=VALUE", description = "Method option, e.g. --option k=21.")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--questions-at-once", paramLabel = "N",
            description = "Questions answered at once (default: four times --concurrency, and 256 with auto; the client"
                    + " serves earlier questions' calls first, so the extra ones keep its slots busy while others work"
                    + " between calls).")
    Integer questionsAtOnce;

    /**
     * eval's own defaults: concurrency auto. A run is a batch of independent questions whose throughput is the point,
     * every attempt refused for load is retried, and summary.json records where the limit settled; a fixed number
     * from the flag, VERACITY_CONCURRENCY or the config file still wins.
     */
    static final Map<String, String> EVAL_DEFAULTS = Map.of("concurrency", "auto");




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
    dev.veracity.method.Truncation.Policy truncated;

    static final class TruncationPolicyConverter implements picocli.CommandLine.ITypeConverter<dev.veracity.method.Truncation.Policy> {
        @Override
        public dev.veracity.method.Truncation.Policy convert(String value) {
            for (dev.veracity.method.Truncation.Policy p : dev.veracity.method.Truncation.Policy.values()) {
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

    @Option(names = "--shard", paramLabel = "I/N", converter = ShardConverter.class,
            description = "Answer only shard I of N of the questions (I is 0-based, as a Kubernetes Indexed Job's"
                    + " JOB_COMPLETION_INDEX): those whose id hashes to I, after --sample and --limit; the same split on"
                    + " every machine. Join the shards' --out folders with ./veracity merge.")
    dev.veracity.eval.run.Shard shard;

    static final class ShardConverter implements picocli.CommandLine.ITypeConverter<dev.veracity.eval.run.Shard> {
        @Override
        public dev.veracity.eval.run.Shard convert(String value) {
            try {
                return dev.veracity.eval.run.Shard.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage().replaceFirst("^--shard ", ""));
            }
        }
    }

    @Option(names = "--force", description = "Start the run in --out over (its results, summary and traces are deleted)"
            + " instead of refusing a folder that holds a run of another configuration.")
    boolean force;

    @Option(names = "--json", description = "End with the run's summary.json on standard output instead of its row"
            + " of the comparison table.")
    boolean json;

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

    /** The job these flags describe, checked (each mistake one line, before any model call). */
    EvalJob job() {
        return EvalJob.builder(Methods.byName(method), dataset.name, dataset.file(), out).options(options).limit(dataset.limit).metrics(metrics)
                .questionsAtOnce(questionsAtOnce).judge(judgeName).judgePrompt(judgePrompt).judgeModel(judgeModel)
                .judgeSamples(judgeSamples).truncated(truncated).sample(sampleSize == null ? null
                        : new QuestionSample(sampleSize, sampleSeed, sampleRange))
                .model(model.resolve(EVAL_DEFAULTS)).documents(retrieval.documents()).preflight(!noPreflight).force(force).shard(shard).build();
    }

    @Override
    public Integer call() throws Exception {
        RunLock.requireFree(out); // another eval writing there: refused before any work
        EvalJob job = job();
        retrieval.requireEmbedder(Methods.byName(method)); // the optional embed part, when the method or a dense search needs it
        if (job.limit() > 0) {
            System.err.println("veracity eval: " + DatasetOptions.limitWarning(job.limit()));
        }
        EvalJobRunner.Result result = EvalJobRunner.run(job, new CliJobEnvironment(proxy,
                j -> watch(j, "resume with the same command: " + commandLine())));
        if (json) { // the summary as written, for a script
            System.out.print(java.nio.file.Files.readString(out.resolve("summary.json")));
        } else { // the run as `veracity compare` shows it: metrics with n and 95% bootstrap intervals
            System.out.print(dev.veracity.eval.report.ComparisonTable.of(
                    List.of(dev.veracity.eval.report.RunDir.load(out))).compact(Terminal.columns()));
        }
        return finish(result, out);
    }

    /**
     * A job's progress as eval shows it: the bar (or log lines), and what a run stopped by Ctrl-C (or SIGTERM) tells:
     * the questions kept, where, and how to go on from there (a SIGKILL leaves the same folder, without the message).
     */
    static JobEnvironment.Watch watch(EvalJob job, String resume) {
        TaskProgress bar = TaskProgress.eval(job.method().name() + " on " + job.dataset(), job.limit());
        AtomicReference<EvalRunner.Progress> progress = new AtomicReference<>();
        Thread interrupted = new Thread(() -> System.err.println(interrupted(progress.get(), job.out(), resume)),
                "eval-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted); // Ctrl-C: what was kept and how to go on
        return new JobEnvironment.Watch() {
            @Override
            public void accept(EvalRunner.Progress p) {
                progress.set(p);
                bar.accept(p);
            }

            @Override
            public void close() {
                try {
                    Runtime.getRuntime().removeShutdownHook(interrupted);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs
                } finally {
                    bar.close();
                }
            }
        };
    }

    /** What a run stopped by Ctrl-C tells: the questions kept, where, and {@code resume}. */
    static String interrupted(EvalRunner.Progress p, Path out, String resume) {
        String kept = p == null || p.reading() ? "no question answered yet" : p.done() + " of " + p.total()
                + " questions answered";
        return "\nInterrupted: " + kept + ", kept in " + out.resolve("results.jsonl") + " (no summary.json yet: compare"
                + " and report read the run as partial); " + resume;
    }

    /** The lines after a run (counts, the method's records, the failures); 1 when a question failed. */
    static int finish(EvalJobRunner.Result result, Path out) {
        EvalRunner.Outcome outcome = result.outcome();
        int width = Terminal.columns();
        System.err.print(dev.veracity.eval.report.TextTable.wrap(String.format("%d questions: %d already done, %d"
                + " answered now, %d failed. Results in %s", outcome.total(), outcome.alreadyDone(), outcome.answered(),
                outcome.failures().size(), out.resolve("results.jsonl")), width, "", "  "));
        result.recordsLine().ifPresent(l -> System.err.print(dev.veracity.eval.report.TextTable.wrap(l, width, "", "  ")));
        if (outcome.summary().concurrencyLimit() != null) {
            System.err.print(dev.veracity.eval.report.TextTable.wrap(limitLine(outcome.summary().concurrencyLimit()),
                    width, "", "  "));
        }
        if (outcome.summary().endpoints() != null) {
            System.err.print(dev.veracity.eval.report.TextTable.wrap(serversLine(outcome.summary().endpoints()),
                    width, "", "  "));
        }
        if (!outcome.failures().isEmpty()) {
            outcome.failures().stream().limit(10).forEach(f -> System.err.print(
                    dev.veracity.eval.report.TextTable.wrap("failed " + f, width, "  ", "    ")));
            System.err.print(dev.veracity.eval.report.TextTable.wrap("Run the same command again to retry the failed"
                    + " questions; finished ones are kept.", width));
            return 1;
        }
        return 0;
    }

    /** The ending's one line on where {@code --concurrency auto} took the limit. */
    static String limitLine(dev.veracity.eval.results.Summary.AdaptiveLimit l) {
        return "Concurrency auto settled at " + l.settled() + " (lowest " + l.lowest() + ", highest " + l.highest()
                + (l.overloadDrops() > 0 ? ", " + l.overloadDrops() + " attempts refused for load and retried" : "")
                + ").";
    }

    /** The ending's one line on what each of several model servers did (summary.json's {@code endpoints}). */
    static String serversLine(List<dev.veracity.eval.results.Summary.Endpoint> servers) {
        return "Model servers: " + String.join("; ", servers.stream().map(e -> e.endpoint().replaceFirst("^openai:", "")
                + " answered " + e.answered() + (e.failures() == 0 ? "" : " (" + e.failures() + " failed"
                + (e.ejections() == 0 ? "" : ", taken out " + e.ejections() + "x")
                + (e.returns() == 0 ? "" : ", back " + e.returns() + "x") + ")")).toList()) + ".";
    }

    /** This command as it was typed (each argument quoted for a POSIX shell where needed). */
    private String commandLine() {
        List<String> args = commandSpec == null || commandSpec.commandLine().getParseResult() == null ? List.of()
                : commandSpec.commandLine().getParseResult().originalArgs();
        args = new java.util.ArrayList<>(args);
        java.nio.file.Path plugins = dev.veracity.plugin.Plugins.folder();
        if (plugins != null) { // main took --plugins out before picocli saw the arguments: the method may be a plug-in's
            args.addAll(List.of("--plugins", plugins.toString()));
        }
        StringBuilder b = new StringBuilder("./veracity");
        for (String a : args) {
            b.append(' ').append(a.matches("[A-Za-z0-9_./:=@%+,-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return b.toString();
    }
}
