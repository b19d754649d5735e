package dev.veracity.rl.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The training data of TruthRL's baselines (section 3.1, Appendix A), built from a probe's {@code probe.jsonl}, as
 * the {@code --responses} ({@code {"id", "response"}}) or {@code --pairs} ({@code {"id", "chosen", "rejected"}}) input
 * of {@code veracity rl export}, which writes them in any trainer's format with the prompt of the probe.
 * <ul>
 *   <li>{@code r-tuning}: the gold answer as the target, "I don't know" for out-of-knowledge questions (boxed, as
 *       TruthRL's prompt asks);</li>
 *   <li>{@code rft}: a correct sampled trace for known questions, a trace that abstains for OOK ones (questions with
 *       neither are left out and counted);</li>
 *   <li>{@code dpo} (and each iteration of iterative DPO, from a probe of the previous checkpoint): OOK questions
 *       prefer "I don't know" (a sampled abstention, else the boxed phrase) to a randomly chosen incorrect answer;
 *       known questions prefer a correct answer to an incorrect one. "Randomly" is seeded, so a rebuild is the same.</li>
 * </ul>
 */
public final class BaselineData {

    /** The baselines. */
    public enum Baseline { R_TUNING, RFT, DPO }

    /** What was built: the lines and why questions were left out. */
    public record Built(List<ObjectNode> lines, int questions, List<String> skipped) {
    }

    static final String IDK = "\\boxed{I don't know}";
    private static final ObjectMapper JSON = new ObjectMapper();

    private BaselineData() {
    }

    public static Baseline baseline(String name) {
        try {
            return Baseline.valueOf(name.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown baseline '" + name + "'; known: r-tuning, rft, dpo");
        }
    }

    /** @param probeLines the lines of {@code probe.jsonl} */
    public static Built build(Baseline baseline, List<JsonNode> probeLines, long seed) {
        List<ObjectNode> out = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (JsonNode q : probeLines) {
            String id = q.path("id").asText();
            boolean ook = q.path("ook").asBoolean();
            List<String> correct = kept(q, "correct");
            List<String> abstain = kept(q, "abstain");
            List<String> wrong = kept(q, "wrong");
            SplittableRandom random = new SplittableRandom(seed ^ id.hashCode());
            switch (baseline) {
                case R_TUNING -> {
                    String gold = q.path("gold").path(0).asText("");
                    if (!ook && gold.isEmpty()) {
                        skipped.add(id + ": no gold answer");
                    } else {
                        out.add(response(id, ook ? IDK : "\\boxed{" + gold + "}"));
                    }
                }
                case RFT -> {
                    List<String> pool = ook ? abstain : correct;
                    if (pool.isEmpty()) {
                        skipped.add(id + ": no kept " + (ook ? "abstaining" : "correct") + " trace");
                    } else {
                        out.add(response(id, pool.getFirst()));
                    }
                }
                case DPO -> {
                    String chosen = ook ? (abstain.isEmpty() ? IDK : abstain.getFirst())
                            : correct.isEmpty() ? null : correct.get(random.nextInt(correct.size()));
                    if (chosen == null) {
                        skipped.add(id + ": no kept correct answer");
                    } else if (wrong.isEmpty()) {
                        skipped.add(id + ": no kept incorrect answer");
                    } else {
                        ObjectNode o = JSON.createObjectNode();
                        o.put("id", id);
                        o.put("chosen", chosen);
                        o.put("rejected", wrong.get(random.nextInt(wrong.size())));
                        out.add(o);
                    }
                }
            }
        }
        return new Built(out, probeLines.size(), skipped);
    }

    private static List<String> kept(JsonNode q, String outcome) {
        List<String> out = new ArrayList<>();
        q.path("kept").forEach(k -> {
            if (outcome.equals(k.path("outcome").asText())) {
                out.add(k.path("response").asText());
            }
        });
        return out;
    }

    private static ObjectNode response(String id, String response) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", id);
        o.put("response", response);
        return o;
    }
}
