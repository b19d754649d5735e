package dev.veracity.cli;

import dev.veracity.eval.data.Datasets;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.madam.MadamRag;
import dev.veracity.qa.QaItem;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench madam}: wall time per question of MADAM-RAG against the simulator at a fixed latency per
 * call, our execution (a round's agents concurrent) against a sequential execution of the same calls (client
 * concurrency 1, as the authors' code runs them). Questions run one at a time in both, so the per-question wall
 * time shows what concurrency inside a question buys. The scripted model is {@link MadamDemo#simRules()}, so both
 * runs make the same calls (cache off).
 */
@Command(name = "madam", mixinStandardHelpOptions = true, description = "MADAM-RAG wall time per question: concurrent agents vs sequential calls.")
final class MadamBench implements Callable<Integer> {

    @Option(names = "--data", description = "RAMDocs JSONL (default: shared/data/ramdocs/RAMDocs_test.jsonl found upwards from here; else the built-in example).")
    Path data;

    @Option(names = "--questions", defaultValue = "10", description = "First N questions (default ${DEFAULT-VALUE}).")
    int questions;

    @Option(names = "--latency-ms", defaultValue = "200", description = "Simulated latency per call (default ${DEFAULT-VALUE}).")
    int latencyMs;

    @Option(names = "--concurrency", defaultValue = "16", description = "Client concurrency of the MADAM-RAG run (default ${DEFAULT-VALUE}).")
    int concurrency;

    /** Mean wall ms per question, calls made. */
    record Result(double wallMsPerQuestion, long calls) {
    }

    @Override
    public Integer call() throws Exception {
        List<QaItem> items = items();
        SimConfig cfg = SimConfig.builder().rules(MadamDemo.simRules().toArray(Rule[]::new))
                .latency(LatencyModel.ofMillis(latencyMs, 0)).capacity(1024).recentRequestLimit(0).build();
        try (SimServer sim = SimServer.start(cfg);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build()) {
            run(backend, List.of(items.getFirst()), concurrency, "warmup");
            Result ours = run(backend, items, concurrency, "madam-concurrent");
            Result seq = run(backend, items, 1, "madam-sequential");
            int docs = items.stream().mapToInt(i -> i.documents().size()).sum();
            System.out.printf(Locale.ROOT, "== MADAM-RAG, %d questions (%.1f documents each), %d ms simulated latency per call%n",
                    items.size(), (double) docs / items.size(), latencyMs);
            System.out.printf(Locale.ROOT, "   concurrent agents (client concurrency %d): %8.0f ms per question, %.1f calls per question%n",
                    concurrency, ours.wallMsPerQuestion(), (double) ours.calls() / items.size());
            System.out.printf(Locale.ROOT, "   sequential calls (client concurrency 1):  %8.0f ms per question, %.1f calls per question%n",
                    seq.wallMsPerQuestion(), (double) seq.calls() / items.size());
            System.out.printf(Locale.ROOT, "   ratio sequential / concurrent: %.2f x%n", seq.wallMsPerQuestion() / ours.wallMsPerQuestion());
        }
        return 0;
    }

    static Result run(OpenAiCompatibleBackend backend, List<QaItem> items, int clientConcurrency, String runId) {
        try (LlmClient client = LlmClient.builder(backend).concurrency(clientConcurrency).build()) {
            long calls0 = client.counters().calls();
            AtomicLong wall = new AtomicLong();
            MadamRag method = new MadamRag();
            for (QaItem item : items) {
                MethodContext ctx = new MethodContext(client, CallContext.of(runId, item.id(), "madam-rag"), "ramdocs", true, Map.of());
                long t0 = System.nanoTime();
                method.answer(item, ctx);
                wall.addAndGet(System.nanoTime() - t0);
            }
            return new Result(wall.get() / 1e6 / items.size(), client.counters().calls() - calls0);
        }
    }

    private List<QaItem> items() {
        Path file = data != null ? data : find("ramdocs/RAMDocs_test.jsonl");
        if (file == null) {
            List<QaItem> out = new ArrayList<>();
            for (int i = 0; i < questions; i++) {
                QaItem s = MadamDemo.sampleItem();
                out.add(new QaItem("mj-" + i, s.question(), s.documents(), s.gold(), s.wrong(), null, Map.of(), null));
            }
            return out;
        }
        try (Stream<QaItem> s = Datasets.stream("ramdocs", file)) {
            return s.limit(questions).toList();
        }
    }

    static Path find(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            for (Path c : new Path[] {dir.resolve("shared/data").resolve(relative), dir.resolve("../shared/data").resolve(relative)}) {
                if (Files.isRegularFile(c)) {
                    return c.normalize();
                }
            }
        }
        return null;
    }
}
