package dev.veracity.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fields every record of a dataset carries ({@link DatasetSpec#fields()}), checked on each record before its loader
 * reads it. A record without them is refused, naming the registered dataset whose fields it has: read under the wrong
 * name a file would load with empty gold answers and score 0 on every question (RAMDocs read as NQ-open).
 */
final class FieldCheck {

    private static final int FIELDS_SHOWN = 8;

    private final String dataset;
    private final List<List<String>> groups;

    private FieldCheck(String dataset, List<String> fields) {
        this.dataset = dataset;
        this.groups = groups(fields);
    }

    /** The check of a registered dataset; none for a name the registry does not know. */
    static FieldCheck of(String dataset) {
        DatasetSpec spec = Datasets.find(dataset);
        return new FieldCheck(dataset, spec == null ? List.of() : spec.fields());
    }

    /** Refuses a record that lacks one of the dataset's fields. */
    void require(Record rec) {
        List<String> missing = missing(groups, rec.node());
        if (missing.isEmpty()) {
            return;
        }
        String problem = "not a " + dataset + " record: missing field" + (missing.size() == 1 ? " " : "s ")
                + String.join(", ", missing);
        List<String> likely = likely(rec);
        if (!likely.isEmpty()) {
            problem += "; it has the fields of " + String.join(" or ", likely) + " (--dataset " + likely.getFirst() + ")";
        } else {
            List<String> has = new ArrayList<>();
            rec.node().fieldNames().forEachRemaining(has::add);
            problem += " (" + dataset + " records carry " + String.join(", ", Datasets.find(dataset).fields())
                    + "; this one has " + (has.isEmpty() ? "no field" : String.join(", ", has.subList(0,
                    Math.min(FIELDS_SHOWN, has.size()))) + (has.size() > FIELDS_SHOWN ? ", ..." : "")) + ")";
        }
        throw rec.error(problem);
    }

    /**
     * The registered datasets whose every declared field the record has and whose loader reads it, those declaring the
     * most fields first (a RAMDocs record also has AmbigDocs' question and documents); ties are all named, in registry
     * order. Only called for a refused record: it reads the record once per candidate.
     */
    static List<String> likely(Record rec) {
        List<String> best = new ArrayList<>();
        int most = 0;
        for (DatasetSpec spec : Datasets.specs()) {
            List<List<String>> g = groups(spec.fields());
            // one field (a question) says nothing about the format
            if (g.size() < 2 || g.size() < most || !missing(g, rec.node()).isEmpty() || !reads(spec, rec)) {
                continue;
            }
            if (g.size() > most) {
                best.clear();
                most = g.size();
            }
            best.add(spec.name());
        }
        return best;
    }

    /** Whether the dataset's loader makes an item of the record (a HotpotQA context is no FaithEval context). */
    private static boolean reads(DatasetSpec spec, Record rec) {
        if (!(spec.loader().get() instanceof RecordLoader loader)) {
            return true;
        }
        try {
            loader.convert(rec);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static List<String> missing(List<List<String>> groups, JsonNode node) {
        List<String> out = new ArrayList<>();
        for (List<String> alternatives : groups) {
            if (alternatives.stream().noneMatch(f -> present(node, f))) {
                out.add(String.join(" or ", alternatives.stream().map(f -> "\"" + f + "\"").toList()));
            }
        }
        return out;
    }

    private static boolean present(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull() && !v.isMissingNode();
    }

    private static List<List<String>> groups(List<String> fields) {
        return fields.stream().map(f -> Arrays.asList(f.split("\\|"))).toList();
    }
}
