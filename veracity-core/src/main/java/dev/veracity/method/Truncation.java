package dev.veracity.method;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmException;
import dev.veracity.trace.CallRecord;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outputs of one question that a token limit cut (finish reason {@code length}), read from its calls' trace
 * records. A sample the server cut below the request's own {@code max_tokens} never gets here: the client asks again
 * ({@link ErrorKind#TRUNCATED}). What remains was cut by the method's own limit (or, for a request without one, by
 * the server's), so asking again would give the same text: {@code eval} marks the question ({@code truncated} in its
 * result line), counts it in {@code summary.json}, and, when the answer itself was read from a cut output, records
 * the question as failed ({@link Policy#FAIL}, the default) or scores it as the method read it ({@link Policy#KEEP});
 * {@code serve} reports it in its {@code veracity} field, the LangChain4j model as finish reason {@code LENGTH}.
 *
 * @param samples   samples of the question's calls that ended with finish reason length
 * @param roles     those samples per agent role (sorted)
 * @param answer    whether the output the prediction was read from ({@link MethodAnswer#raw()}, else the prediction
 *                  itself) is one of them
 * @param role      the role of that output's call ("" when {@code answer} is false)
 * @param maxTokens the {@code max_tokens} of that output's request (null when it set none, or {@code answer} is false)
 */
public record Truncation(int samples, Map<String, Integer> roles, boolean answer, String role, Integer maxTokens) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LENGTH = FinishReason.LENGTH.name();

    /** What a run does with a question whose answer was read from an output its token limit cut. */
    public enum Policy {
        /** Recorded as a failed question with kind {@code TRUNCATED}: never scored as an answer. */
        FAIL,
        /** Scored as the method read it, marked and counted. */
        KEEP;

        /** The name as the command line writes it. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Truncation {
        roles = Map.copyOf(roles);
        role = role == null ? "" : role;
    }

    /** The cut outputs among {@code calls}, and whether {@code answer} was read from one. */
    public static Truncation of(List<CallRecord> calls, MethodAnswer answer) {
        String source = (answer.raw().isEmpty() ? answer.prediction() : answer.raw()).strip();
        Map<String, Integer> roles = new TreeMap<>();
        int samples = 0;
        CallRecord from = null;
        for (CallRecord c : calls) {
            for (int i = 0; i < c.finishReasons().size(); i++) {
                if (!LENGTH.equals(c.finishReasons().get(i))) {
                    continue;
                }
                samples++;
                roles.merge(c.context().role().isEmpty() ? "-" : c.context().role(), 1, Integer::sum);
                if (from == null && !source.isEmpty() && i < c.outputs().size()
                        && c.outputs().get(i).strip().equals(source)) {
                    from = c;
                }
            }
        }
        return new Truncation(samples, roles, from != null, from == null ? "" : from.context().role(),
                from == null ? null : maxTokens(from.settings()));
    }

    /** Whether any output of the question was cut. */
    public boolean any() {
        return samples > 0;
    }

    /**
     * The failure of a question whose answer was read from a cut output ({@link Policy#FAIL}): one line that says
     * which role's output and what to do.
     */
    public LlmException failure() {
        String limit = maxTokens == null ? "the server's output limit (the request set no max_tokens)"
                : "its max_tokens of " + maxTokens;
        return new LlmException(ErrorKind.TRUNCATED, "the answer was read from " + (role.isEmpty() ? "an" : "the "
                + role + "'s") + " output, which " + limit + " cut (finish_reason length): raise the method's token"
                + " limit (see ./veracity methods for its max-tokens option) or pass --truncated keep to score it as read");
    }

    private static Integer maxTokens(String settings) {
        try {
            JsonNode n = JSON.readTree(settings == null ? "{}" : settings).path("max_tokens");
            return n.canConvertToInt() ? n.asInt() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
