package dev.veracity.rl.reward;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.sim.Rule;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared table every reward door must agree on ({@code rewards-table.jsonl}, in this module's test-jar): 50+ rows
 * {@code {"reward_name", "question", "response", "label", "expected": {"reward", "details"}}} over every kind of
 * reward, with the expected values worked out by hand from each reward's rule. The MARCH rows need a model that
 * answers as the paper's does in Appendix C: start the simulator with {@link #simRules()}.
 */
public final class RewardsTable {

    public static final String RESOURCE = "/rewards-table.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One row: its 1-based line, the reward's name, the row as it is in the file, and what it must score. */
    public record Row(int line, String rewardName, ObjectNode row, JsonNode expected) {
    }

    private RewardsTable() {
    }

    public static List<Row> rows() {
        List<Row> out = new ArrayList<>();
        try (InputStream in = RewardsTable.class.getResourceAsStream(RESOURCE);
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                ObjectNode row = (ObjectNode) JSON.readTree(line);
                out.add(new Row(n, row.get("reward_name").asText(), row, row.get("expected")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The rows by reward name, in table order. */
    public static Map<String, List<Row>> byReward() {
        Map<String, List<Row>> out = new LinkedHashMap<>();
        for (Row r : rows()) {
            out.computeIfAbsent(r.rewardName(), k -> new ArrayList<>()).add(r);
        }
        return out;
    }

    /** Simulator rules answering MARCH's Proposer and Checker prompts as the paper's model ({@link AppendixC}). */
    public static List<Rule> simRules() {
        return List.of(
                Rule.of("You are a data validation expert", m -> AppendixC.respond(m.prompt())),
                Rule.of("You are a data annotation expert", m -> AppendixC.respond(m.prompt())));
    }

    /** What the Java API gives for the rows of one reward, as {@code {"reward", "details"}} objects in row order. */
    public static List<ObjectNode> javaApi(Reward reward, List<Row> rows) {
        List<RewardInput> inputs = rows.stream().map(r -> RewardRows.input(r.row())).toList();
        List<RewardResult> results = reward.scoreAll(inputs);
        List<ObjectNode> out = new ArrayList<>();
        for (RewardResult r : results) {
            ObjectNode o = JSON.createObjectNode();
            o.put("reward", r.score());
            o.set("details", RewardRows.details(r));
            out.add(roundTrip(o));
        }
        return out;
    }

    /** The node as it reads back from its JSON text, so that two doors' outputs compare as written. */
    public static ObjectNode roundTrip(ObjectNode o) {
        try {
            return (ObjectNode) JSON.readTree(o.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts {@code {"reward", "details"}} equal the row's expected values (numbers to 1e-12). */
    public static void assertExpected(Row row, JsonNode actual) {
        String where = "row " + row.line() + " (" + row.rewardName() + ": " + abbreviate(row.row().get("response").asText()) + ")";
        assertThat(actual.get("reward").asDouble()).as(where + " reward")
                .isCloseTo(row.expected().get("reward").asDouble(), org.assertj.core.data.Offset.offset(1e-12));
        JsonNode want = row.expected().get("details");
        JsonNode got = actual.get("details");
        assertThat(names(got)).as(where + " detail names").isEqualTo(names(want));
        for (String k : names(want)) {
            JsonNode w = want.get(k);
            JsonNode g = got.get(k);
            if (w.isNumber()) {
                assertThat(g.isNumber()).as(where + " " + k).isTrue();
                assertThat(g.asDouble()).as(where + " " + k).isCloseTo(w.asDouble(), org.assertj.core.data.Offset.offset(1e-12));
            } else {
                assertThat(g).as(where + " " + k).isEqualTo(w);
            }
        }
    }

    private static List<String> names(JsonNode o) {
        List<String> out = new ArrayList<>();
        for (Iterator<String> i = o.fieldNames(); i.hasNext(); ) {
            out.add(i.next());
        }
        return out;
    }

    private static String abbreviate(String s) {
        String t = s.replaceAll("\\s+", " ");
        return t.length() <= 60 ? t : t.substring(0, 57) + "...";
    }
}
