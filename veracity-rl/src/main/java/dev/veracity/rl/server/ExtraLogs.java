package dev.veracity.rl.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.ServerLog;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardResult;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * OpenRLHF's {@code extra_logs}: one list per key, one number per sample, with the same keys in every answer of the
 * server, whatever the sample: the reward's declared numeric details ({@link Reward#numericDetails()}, booleans as
 * 1/0, the declared neutral value for a sample without that detail, e.g. a fallback) and {@code fallback} (1 for a
 * fallback score). OpenRLHF asks for one sample per request, turns each value into a tensor and concatenates them key by
 * key across a micro-batch ({@code Experience.concat_experiences}), then splits them per sample
 * ({@code split_experience_batch}): a key missing from one sample made that fail with "Size of info[boxed] (1) does
 * not match batch_size (2)". A numeric detail the reward does not declare is left out (logged once), never sent for
 * some samples only.
 */
final class ExtraLogs {

    static final String FALLBACK = "fallback";

    private final Reward reward;
    private final Map<String, Double> columns;
    private final ServerLog log;
    private final Set<String> undeclared = ConcurrentHashMap.newKeySet();

    ExtraLogs(Reward reward, ServerLog log) {
        this.reward = reward;
        this.columns = reward.numericDetails();
        if (columns.containsKey(FALLBACK)) {
            throw new IllegalArgumentException("reward " + reward.name() + " declares a numeric detail named \""
                    + FALLBACK + "\", which the server's extra_logs keeps for its fallback flag");
        }
        this.log = log;
    }

    /** The {@code extra_logs} object for these results, in order: every declared column and {@code fallback}. */
    ObjectNode of(List<RewardResult> results) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        columns.forEach((name, neutral) -> {
            ArrayNode a = out.putArray(name);
            for (RewardResult r : results) {
                Double v = number(r.details().get(name));
                a.add(v == null ? neutral : v);
            }
        });
        ArrayNode fallback = out.putArray(FALLBACK);
        for (RewardResult r : results) {
            fallback.add(r.isFallback() ? 1.0 : 0.0);
            r.details().forEach((name, value) -> {
                if (number(value) != null && !columns.containsKey(name) && undeclared.add(name)) {
                    log.warn("reward " + reward.name() + " gives the numeric detail \"" + name + "\", which its"
                            + " numericDetails() does not declare: it is left out of OpenRLHF's extra_logs");
                }
            });
        }
        return out;
    }

    private static Double number(Object value) {
        return value instanceof Number n ? Double.valueOf(n.doubleValue())
                : value instanceof Boolean b ? Double.valueOf(b ? 1.0 : 0.0) : null;
    }
}
