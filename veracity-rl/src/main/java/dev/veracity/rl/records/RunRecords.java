package dev.veracity.rl.records;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.llm.ChatMessage;
import dev.veracity.method.AgentRecord;
import dev.veracity.rl.jsonl.AtomicJsonlWriter;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent records of any eval run, from its {@code traces.db} and {@code results.jsonl}: every traced call of an
 * answered question is one record per sample (node {@code CALL#i}), with the messages exactly as sent and the output
 * as returned, each rewarded with the question's outcome (a metric of the result line, or one of the method's signals,
 * e.g. MARCH's {@code ztr}): the "every node gets the final reward" credit of C-3PO's ablation, for methods whose
 * agents share one outcome (MADAM-RAG's agents and aggregator, Reasoning Court's agents and judge). Calls are chained
 * in the order they were made within a role-less tree: a call's parent is the last call of the question that had
 * ended before it was asked (agents that ran at once share a parent), so the record tree follows the dataflow.
 */
public final class RunRecords {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RunRecords() {
    }

    /**
     * @param runDir an eval output folder
     * @param reward {@code metric:NAME} (a metric of the result lines, e.g. {@code metric:em}) or {@code signal:NAME}
     *               (a method signal, e.g. {@code signal:ztr})
     */
    public static List<AgentRecord> of(Path runDir, String reward) throws IOException {
        String[] r = reward.split(":", 2);
        if (r.length != 2 || !(r[0].equals("metric") || r[0].equals("signal")) || r[1].isBlank()) {
            throw new IllegalArgumentException("--reward must be metric:NAME (e.g. metric:em) or signal:NAME (e.g."
                    + " signal:ztr), was '" + reward + "'");
        }
        Path results = runDir.resolve("results.jsonl");
        Path traces = runDir.resolve("traces.db");
        if (!Files.isRegularFile(results) || !Files.isRegularFile(traces)) {
            throw new IllegalArgumentException(runDir + " is not an eval run folder (it needs results.jsonl and traces.db)");
        }
        String method = "";
        Path summary = runDir.resolve("summary.json");
        if (Files.isRegularFile(summary)) {
            String named = ResultsJson.summary(summary).method();
            method = named == null ? "" : named;
        }
        String run = String.valueOf(runDir.toAbsolutePath().normalize().getFileName());
        List<AgentRecord> out = new ArrayList<>();
        int lineNo = 0;
        int withReward = 0;
        try (TraceStore store = TraceStore.open(traces)) {
            for (String line : Files.readAllLines(results)) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                ResultLine l;
                try {
                    l = ResultsJson.line(line, results + ":" + lineNo);
                } catch (ResultsJson.MalformedLine e) {
                    continue; // a line cut off by a kill: that question has no outcome to train on
                }
                if (l.isFailure() || l.traceRun() == null || l.id() == null) {
                    continue;
                }
                Double value = r[0].equals("metric") ? l.metricValue(r[1]) : l.signalsOrEmpty().get(r[1]);
                if (value != null) {
                    withReward++;
                }
                String q = l.id();
                List<CallRecord> calls = store.calls(l.traceRun(), q);
                for (CallRecord c : calls) {
                    String parent = parentOf(c, calls);
                    for (int i = 0; i < c.outputs().size(); i++) {
                        out.add(AgentRecord.of(run, q, method.isEmpty() ? c.context().method() : method, c.context().role(),
                                c.callId() + "#" + i, parent == null ? null : parent + "#0", messages(c.prompt()),
                                c.outputs().get(i), value));
                    }
                }
            }
        }
        if (lineNo > 0 && withReward == 0) {
            throw new IllegalArgumentException("no result line of " + results + " has " + (r[0].equals("metric")
                    ? "metric" : "signal") + " '" + r[1] + "'; pick one the run recorded");
        }
        return out;
    }

    /** The last call of the question that had ended when this one was asked, or null. */
    static String parentOf(CallRecord c, List<CallRecord> calls) {
        CallRecord best = null;
        for (CallRecord o : calls) {
            if (o != c && o.endedMicros() <= c.submittedMicros() && (best == null || o.endedMicros() > best.endedMicros())) {
                best = o;
            }
        }
        return best == null ? null : best.callId();
    }

    /** A traced prompt: messages as JSON ({@code [{"role", "content"}]}) or a raw prompt (one user message). */
    static List<ChatMessage> messages(String prompt) {
        List<ChatMessage> out = new ArrayList<>();
        if (prompt != null && prompt.startsWith("[")) {
            try {
                for (JsonNode m : JSON.readTree(prompt)) {
                    out.add(new ChatMessage(ChatMessage.Role.fromWire(m.path("role").asText()), m.path("content").asText("")));
                }
                return out;
            } catch (IOException e) {
                out.clear(); // not the messages' JSON: a raw prompt that starts with a bracket
            }
        }
        out.add(ChatMessage.user(prompt == null ? "" : prompt));
        return out;
    }

    /** Writes records as JSON lines, atomically. */
    public static void write(List<AgentRecord> records, Path file) {
        try (AtomicJsonlWriter w = new AtomicJsonlWriter(file)) {
            records.forEach(r -> w.write(r.toJson()));
            w.commit();
        }
    }
}
