package dev.veracity.methods.march;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A verification as JSON: rewards, verdict and every claim with the Checker's answers and evidence. */
public final class MarchJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MarchJson() {
    }

    public static ObjectNode of(Verification v, MarchSettings settings) {
        ObjectNode o = JSON.createObjectNode();
        o.put("reward", settings.ztr().of(v));
        o.put("error_rate_reward", settings.errorRateReward().of(v));
        o.put("status", v.status().label());
        o.put("passed", v.status() == Verification.Status.PASSED); // claims were checked: not so without claims
        o.put("claims_total", v.claims().size());
        o.put("faults", v.faults());
        o.put("checker_samples", settings.samples());
        o.put("match", settings.match());
        ArrayNode claims = o.putArray("claims");
        for (ClaimCheck c : v.claims()) {
            ObjectNode n = claims.addObject();
            n.put("number", c.claim().number());
            n.put("question", c.claim().question());
            n.put("claimed_answer", c.claim().answer());
            ArrayNode answers = n.putArray("checker_answers");
            for (int i = 0; i < c.answers().size(); i++) {
                CheckerAnswer a = c.answers().get(i);
                ObjectNode an = answers.addObject();
                an.put("sample", i);
                if (a == null) {
                    an.putNull("answer");
                    an.putNull("evidence");
                } else {
                    an.put("answer", a.answer());
                    an.put("evidence", a.evidence());
                }
            }
            n.put("consensus", c.consensus());
            n.put("vote", c.vote());
            n.put("verdict", c.verdict());
        }
        ArrayNode problems = o.putArray("parse_problems");
        v.problems().forEach(problems::add);
        return o;
    }

    /** Adds {@code calls}: the model calls of one verification by MARCH role (proposer, checker) and in all. */
    public static ObjectNode putCalls(ObjectNode json, java.util.List<dev.veracity.trace.CallRecord> calls) {
        ObjectNode counts = json.putObject("calls");
        counts.put("proposer", calls.stream().filter(r -> r.context().role().equals("proposer")).count());
        counts.put("checker", calls.stream().filter(r -> r.context().role().equals("checker")).count());
        counts.put("total", calls.size());
        return json;
    }
}
