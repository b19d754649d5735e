package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.judge.Judge;
import dev.veracity.eval.judge.JudgeOptions;
import dev.veracity.eval.judge.JudgePrompt;
import dev.veracity.eval.judge.Judges;
import dev.veracity.methods.truthrl.TruthRlPrompts;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.probe.KnowledgeProbe;
import dev.veracity.rl.probe.ProbeRun;
import dev.veracity.rl.probe.ProbeSettings;
import dev.veracity.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./veracity probe}: TruthRL's knowledge-boundary probing (section 3.1). */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = {"TruthRL knowledge-boundary probing: N samples per question with TruthRL's prompt; a question none of"
                + " whose samples is correct is out of the model's knowledge (OOK).",
                "Writes DIR/probe.jsonl (counts per question, as it goes; resumable) and DIR/ook.jsonl (the OOK set as"
                        + " reward labels)."})
final class ProbeCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output folder.")
    Path out;

    @Option(names = "--samples", defaultValue = "256", paramLabel = "N", description = "Samples per question (default ${DEFAULT-VALUE}, the paper's).")
    int samples;

    @Option(names = "--samples-per-call", defaultValue = "64", paramLabel = "N", description = "Samples per request, n (default ${DEFAULT-VALUE}).")
    int perCall;

    @Option(names = "--temperature", defaultValue = "1.0", paramLabel = "T", description = "Sampling temperature (default ${DEFAULT-VALUE}).")
    double temperature;

    @Option(names = "--top-p", defaultValue = "0.9", paramLabel = "P", description = "Nucleus mass (default ${DEFAULT-VALUE}, the authors').")
    double topP;

    @Option(names = "--max-tokens", defaultValue = "2048", paramLabel = "N", description = "New tokens per sample (default ${DEFAULT-VALUE}).")
    int maxTokens;

    @Option(names = "--seed", defaultValue = "0", paramLabel = "S", description = "Seed of a question's first request; request k uses S + k (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--retrieval", description = "Show the question's documents (the paper probes closed book).")
    boolean retrieval;

    @Option(names = "--query-time", defaultValue = "N/A", paramLabel = "TEXT", description = "Query Time for questions without one.")
    String queryTime;

    @Option(names = "--judge", defaultValue = "crag", paramLabel = "NAME",
            description = "LLM judge for what exact match does not settle, as the paper judges correctness: crag"
                    + " (TruthRL's, the default), true-false or equivalence; none for exact match alone (which counts a"
                    + " right answer in other words as wrong, and so inflates the out-of-knowledge set).")
    String judgeName;

    @Option(names = "--judge-model", paramLabel = "NAME", description = "Model for the judge (default: --model; the paper's: Llama3.3-70B-Instruct).")
    String judgeModel;

    @Option(names = "--judge-prompt", paramLabel = "TEXT",
            description = "The crag judge's text: authors (their released prompts.py, the default) or paper (Table 11).")
    String judgePrompt;

    @Option(names = "--questions-at-once", defaultValue = "8", paramLabel = "N", description = "Questions probed at once (default ${DEFAULT-VALUE}).")
    int questionsAtOnce;

    @Option(names = "--keep", defaultValue = "4", paramLabel = "N",
            description = "Responses kept per question and outcome (correct, abstain, wrong) for probe data (default ${DEFAULT-VALUE}).")
    int keep;

    @Option(names = "--dry-run", description = "Print what the probe would ask, and stop.")
    boolean dryRun;

    @Option(names = "--no-preflight", description = "Skip the GET /models check before the first call.")
    boolean noPreflight;

    @Mixin
    DatasetOptions dataset;

    @Mixin
    ModelOptions model;

    @Override
    public Integer call() throws Exception {
        String datasetName = dataset.checkedName();
        boolean judged = !judgeName.equalsIgnoreCase("none");
        if (judged) {
            Judges.requireKnown(judgeName);
        } else if (judgeModel != null || judgePrompt != null) {
            throw new IllegalArgumentException("--judge-model and --judge-prompt set the judge, and --judge none has none:"
                    + " drop them, or name a judge");
        }
        JudgePrompt text = judgePrompt == null ? JudgePrompt.AUTHORS : JudgePrompt.byName(judgePrompt);
        ProbeSettings settings = new ProbeSettings(samples, perCall, temperature, topP, maxTokens, seed, retrieval,
                queryTime, questionsAtOnce, keep);
        List<QaItem> items;
        try (Stream<QaItem> s = Datasets.stream(datasetName, dataset.file())) {
            items = (dataset.limit > 0 ? s.limit(dataset.limit) : s).toList();
        }
        if (retrieval && items.stream().anyMatch(i -> i.documents().isEmpty())) {
            throw new IllegalArgumentException("--retrieval shows each question's documents, but " + datasetName
                    + " questions in " + dataset.file() + " have none; probe closed book (drop --retrieval)");
        }
        Map<String, Long> estimate = ProbeRun.estimate(items, settings, i -> TruthRlPrompts.prompt(i, retrieval,
                TruthRlPrompts.queryTime(i, queryTime)));
        System.err.println("probe: " + estimate.get("questions") + " questions x " + samples + " samples = "
                + estimate.get("samples") + " samples in " + estimate.get("requests") + " requests; about "
                + estimate.get("prompt_tokens_about") + " prompt tokens and at most " + estimate.get("completion_tokens_at_most")
                + " completion tokens" + (judged ? ", plus up to one " + judgeName + " judge call per gold answer for each"
                + " sample that exact match does not settle" : "; correctness by exact match alone (--judge none)")
                + " (questions already in " + out.resolve(ProbeRun.RESULTS) + " are skipped)");
        if (dryRun) {
            return 0;
        }
        VeracityConfig base = model.resolve();
        if (!noPreflight) {
            Preflight.check(base);
        }
        Files.createDirectories(out);
        VeracityConfig cfg = base.withTraceFile(out.resolve("traces.db"));
        ProbeRun.Outcome outcome;
        try (TraceStore store = TraceStore.open(cfg.traceFile()); Stack stack = new Stack(cfg, store);
             TaskProgress bar = TaskProgress.eval("probe " + datasetName, items.size())) {
            Judge judge = judged ? Judges.byName(judgeName, stack.client, new JudgeOptions(1, 0.0, null, judgeModel), text)
                    : null;
            KnowledgeProbe probe = new KnowledgeProbe(stack.client, settings, judge);
            outcome = ProbeRun.run(probe, items, out, questionsAtOnce, "probe@" + Instant.now(),
                    done -> bar.accept(new dev.veracity.eval.run.EvalRunner.Progress(done, items.size(),
                            stack.client.counters().calls(), 0)));
        }
        System.out.printf("%d questions: %d already probed, %d probed now, %d out of knowledge. Results in %s, the OOK set"
                        + " in %s%n", outcome.total(), outcome.alreadyDone(), outcome.probed(), outcome.ook(),
                out.resolve(ProbeRun.RESULTS), out.resolve(ProbeRun.OOK));
        if (!outcome.failures().isEmpty()) {
            outcome.failures().stream().limit(10).forEach(f -> System.err.println("  failed " + f));
            System.err.println("Run the same command again to probe the failed questions; finished ones are kept.");
            return 1;
        }
        return 0;
    }
}
