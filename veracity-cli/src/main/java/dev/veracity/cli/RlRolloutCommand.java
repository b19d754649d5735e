package dev.veracity.cli;

import dev.veracity.config.ApiKey;
import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.data.Datasets;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.lucene.LuceneIndex;
import dev.veracity.rl.areal.ArealClient;
import dev.veracity.rl.areal.OnlineRollout;
import dev.veracity.rl.jsonl.JsonlRows;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.TraceStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./veracity rl rollout}: online training with AReaL, the policy in the trainer. */
@Command(name = "rollout", mixinStandardHelpOptions = true,
        description = {"Online training with AReaL (rollout.agent.mode: online), no Python: each question is one AReaL"
                + " session; the method's trained calls go to the gateway's chat completions with the session key, each"
                + " trained interaction gets its reward (march: the Solver's and Checker sample 0's ZTR; c3po: each"
                + " proxy sample its node's credit), and the session is ended for the trainer.",
                "The other calls (MARCH's Proposer and voting Checker samples, C-3PO's LLM) go to --llm-base-url."
                        + " Writes records.jsonl, rewards.jsonl, sessions.jsonl and rollout-summary.json to --out;"
                        + " killed and rerun, it skips the questions whose sessions ended. The admin key comes from"
                        + " VERACITY_AREAL_ADMIN_KEY (default AReaL's areal-admin-key)."})
final class RlRolloutCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--method", required = true, paramLabel = "march|c3po", description = "The method whose agents train.")
    String method;

    @Option(names = "--areal", required = true, paramLabel = "URL",
            description = "AReaL's proxy gateway, e.g. http://10.0.0.5:8090 (printed as 'Proxy gateway available at').")
    String arealUrl;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output folder (resumed when it exists).")
    Path out;

    @Option(names = "--questions-at-once", defaultValue = "4", paramLabel = "N",
            description = "Sessions open at once (default ${DEFAULT-VALUE}); AReaL's capacity bounds it too.")
    int questionsAtOnce;

    @Option(names = "--option", paramLabel = "KEY=VALUE",
            description = "march: its settings, as for the march method (veracity methods march), e.g. --option samples=3.")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--policy-model", defaultValue = "default", paramLabel = "NAME",
            description = "The model name sent to the gateway (AReaL ignores it; default ${DEFAULT-VALUE}).")
    String policyModel;

    @Option(names = "--capacity-wait-seconds", defaultValue = "300", paramLabel = "S",
            description = "How long start_session retries AReaL's 429 (no capacity) per question (default ${DEFAULT-VALUE}).")
    int capacityWaitSeconds;

    @Option(names = "--index", paramLabel = "DIR",
            description = "c3po: a retrieval index the proxy's queries search; without it, each question's own passages.")
    Path index;

    @Option(names = "--search-mode", defaultValue = "bm25", paramLabel = "MODE", description = "bm25, dense or hybrid (default ${DEFAULT-VALUE}).")
    String searchMode;

    @Option(names = "--no-preflight", description = "Skip the check of --llm-base-url (GET /models) before the run.")
    boolean noPreflight;

    @Mixin
    DatasetOptions dataset;

    @Mixin
    C3poRolloutOptions c3po;

    @Mixin
    ModelOptions model;

    @Override
    public Integer call() throws Exception {
        OnlineRollout.Method m = OnlineRollout.Method.of(method);
        String datasetName = dataset.checkedName();
        if (questionsAtOnce < 1 || capacityWaitSeconds < 0) {
            throw new IllegalArgumentException("--capacity-wait-seconds must be >= 0, --questions-at-once >= 1");
        }
        if (m == OnlineRollout.Method.MARCH) {
            MarchSettings.fromOptions(options); // a bad option is one line before any session
        } else if (!options.isEmpty()) {
            throw new IllegalArgumentException("--option sets MARCH's settings; c3po takes the rollout flags (--preset, ...)");
        }
        Optional<QaItem> first;
        try (Stream<QaItem> s = Datasets.stream(datasetName, dataset.file())) {
            first = s.findFirst();
        }
        if (first.isPresent() && first.get().documents().isEmpty() && (m == OnlineRollout.Method.MARCH || index == null)) {
            throw new IllegalArgumentException(m == OnlineRollout.Method.MARCH
                    ? datasetName + " questions come without documents and MARCH checks answers against them: use a dataset"
                    + " with passages (ramdocs, hotpotqa, ...)"
                    : datasetName + " questions come without passages and C-3PO searches: pass --index DIR");
        }
        String admin = System.getenv().getOrDefault("VERACITY_AREAL_ADMIN_KEY", ArealClient.DEFAULT_ADMIN_KEY);
        ArealClient areal = new ArealClient(arealUrl, ApiKey.of(admin), Duration.ofSeconds(30),
                Duration.ofSeconds(capacityWaitSeconds));
        OnlineRollout.Spec rollout = new OnlineRollout.Spec(m, datasetName, dataset.file(), dataset.limit, out, questionsAtOnce,
                out.toAbsolutePath().normalize().getFileName() + "@" + Instant.now(), options,
                m == OnlineRollout.Method.C3PO ? c3po.settings() : null,
                m == OnlineRollout.Method.C3PO ? c3po.leafReward() : null);
        VeracityConfig base = model.resolve();
        if (!noPreflight) {
            Preflight.check(base);
        }
        Files.createDirectories(out);
        VeracityConfig cfg = base.withTraceFile(out.resolve("traces.db"));
        PrintWriter log = spec.commandLine().getErr();
        Embedder embedder = index != null && !searchMode.equals("bm25") ? LocalEmbedders.bgeSmall() : null;
        try (LuceneIndex searchIndex = index == null ? null : LuceneIndex.open(index);
             TraceStore traces = TraceStore.open(cfg.traceFile());
             Stack stack = new Stack(cfg, traces)) {
            Retriever retriever = searchIndex == null ? null : searchIndex.retriever(searchMode, embedder);
            MethodContext ctx = new MethodContext(stack.client, CallContext.of(rollout.run(), "", "rl-rollout"), datasetName,
                    false, Map.of(), retriever, null, null);
            // The policy changes as it trains: its calls are never cached, and AReaL takes one sample per request.
            OnlineRollout.PolicyClients policy = session -> LlmClient.builder(OpenAiCompatibleBackend.builder()
                            .baseUrl(areal.policyUrl()).model(policyModel).apiKey(session.key())
                            .singleSampleRequests(true).build())
                    .closeBackend(true).concurrency(cfg.concurrency()).timeout(cfg.timeout())
                    .retry(RetrySettings.DEFAULT.withMaxAttempts(cfg.maxAttempts()))
                    .cache(ResponseCache.NONE, CacheMode.OFF).traces(traces).build();
            log.printf("online %s rollout against AReaL at %s; other calls to %s%n", m.wireName(), areal.policyUrl(),
                    base.llmBaseUrl());
            OnlineRollout.Outcome o = OnlineRollout.run(rollout, areal, policy, ctx, line -> {
                synchronized (log) {
                    log.println(line);
                    log.flush();
                }
            });
            spec.commandLine().getOut().println(JsonlRows.JSON.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(o.summary()));
            spec.commandLine().getOut().flush();
            log.printf("%d questions: %d already done, %d sessions ended now, %d failed. Sessions in %s%n",
                    o.questions(), o.skipped(), o.written(), o.failures().size(), out.resolve(OnlineRollout.SESSIONS));
            if (!o.failures().isEmpty()) {
                o.failures().stream().limit(10).forEach(f -> log.println("  failed " + f));
                log.println("Run the same command again to retry them; finished questions are kept.");
                log.flush();
                return 1;
            }
            log.flush();
        }
        return 0;
    }
}
