package dev.veracity.rl.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.jsonl.AtomicJsonlWriter;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.IntConsumer;

/**
 * A probe over many questions into a folder: {@code probe.jsonl} gets one line per question as soon as it is done
 * (its counts, OOK flag, seeds and the responses kept for the baselines' data), {@code ook.jsonl} the OOK questions at the end, in the label shape the reward
 * core reads ({@code {"id", "question", "label": {"answers", "ook": true}}}). Started again on the same folder it
 * probes only the questions the file lacks; a line cut off by a kill is dropped and its question asked again (its
 * samples come back from the response cache).
 */
public final class ProbeRun {

    public static final String RESULTS = "probe.jsonl";
    public static final String OOK = "ook.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a run did. */
    public record Outcome(int total, int alreadyDone, int probed, int ook, List<String> failures) {
    }

    private ProbeRun() {
    }

    public static Outcome run(KnowledgeProbe probe, List<QaItem> items, Path dir, int questionsAtOnce, String runId,
                              IntConsumer progress) throws IOException {
        Files.createDirectories(dir);
        Path results = dir.resolve(RESULTS);
        Map<String, JsonNode> done = readDone(results);
        List<QaItem> todo = items.stream().filter(i -> !done.containsKey(i.id())).toList();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        Semaphore slots = new Semaphore(questionsAtOnce);
        java.util.concurrent.atomic.AtomicInteger finished = new java.util.concurrent.atomic.AtomicInteger(done.size());
        try (BufferedWriter out = Files.newBufferedWriter(results, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (QaItem item : todo) {
                slots.acquireUninterruptibly();
                all.add(pool.submit(() -> {
                    try {
                        ObjectNode line = line(probe.probe(item, runId));
                        synchronized (out) {
                            out.write(JSON.writeValueAsString(line));
                            out.write('\n');
                            out.flush();
                        }
                        done.put(item.id(), line);
                        progress.accept(finished.incrementAndGet());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    } catch (RuntimeException e) {
                        failures.add(item.id() + ": " + e.getMessage()); // asked again by the next run
                    } finally {
                        slots.release();
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        }
        int ook = writeOok(items, done, dir.resolve(OOK));
        return new Outcome(items.size(), items.size() - todo.size(), todo.size() - failures.size(), ook,
                List.copyOf(failures));
    }

    static ObjectNode line(ProbeResult r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", r.id());
        o.put("question", r.question());
        r.gold().forEach(o.putArray("gold")::add);
        o.put("samples", r.samples());
        o.put("correct", r.correct());
        o.put("abstained", r.abstained());
        o.put("no_answer", r.noAnswer());
        o.put("unjudged", r.unjudged());
        o.put("ook", r.ook());
        r.seeds().forEach(o.putArray("seeds")::add);
        var kept = o.putArray("kept");
        for (ProbeResult.Kept k : r.kept()) {
            kept.addObject().put("sample", k.sample()).put("outcome", k.outcome()).put("response", k.response());
        }
        return o;
    }

    /** The lines already written, by id; a last line cut off by a kill is removed from the file. */
    static Map<String, JsonNode> readDone(Path results) throws IOException {
        Map<String, JsonNode> done = new java.util.concurrent.ConcurrentHashMap<>();
        if (!Files.exists(results)) {
            return done;
        }
        List<String> lines = Files.readAllLines(results, StandardCharsets.UTF_8);
        List<String> kept = new ArrayList<>();
        for (String l : lines) {
            if (l.isBlank()) {
                continue;
            }
            try {
                JsonNode n = JSON.readTree(l);
                if (n != null && n.hasNonNull("id")) {
                    done.put(n.get("id").asText(), n);
                    kept.add(l);
                }
            } catch (IOException e) {
                // a line cut off by a kill: its question is probed again
            }
        }
        if (kept.size() != lines.size()) {
            Files.write(results, kept, StandardCharsets.UTF_8);
        }
        return done;
    }

    private static int writeOok(List<QaItem> items, Map<String, JsonNode> done, Path file) {
        int n = 0;
        try (AtomicJsonlWriter w = new AtomicJsonlWriter(file)) {
            for (QaItem i : items) {
                JsonNode l = done.get(i.id());
                if (l != null && l.path("ook").asBoolean()) {
                    ObjectNode o = JSON.createObjectNode();
                    o.put("id", i.id());
                    o.put("question", i.question());
                    ObjectNode label = o.putObject("label");
                    l.path("gold").forEach(g -> label.withArray("answers").add(g.asText()));
                    label.put("ook", true);
                    w.write(o);
                    n++;
                }
            }
            w.commit();
        }
        return n;
    }

    /** What a probe will ask, for the estimate printed before it starts. */
    public static Map<String, Long> estimate(List<QaItem> items, ProbeSettings s, java.util.function.Function<QaItem, String> prompt) {
        long requests = (long) items.size() * s.requestsPerQuestion();
        long promptTokens = 0;
        for (QaItem i : items) {
            promptTokens += (long) s.requestsPerQuestion() * Math.max(1, prompt.apply(i).length() / 4);
        }
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("questions", (long) items.size());
        m.put("requests", requests);
        m.put("samples", (long) items.size() * s.samples());
        m.put("prompt_tokens_about", promptTokens);
        m.put("completion_tokens_at_most", (long) items.size() * s.samples() * s.maxTokens());
        return m;
    }
}
