package dev.veracity.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fields every record of a dataset carries, checked on each record before its loader reads it: those that make it
 * the dataset's ({@link DatasetSpec#fields()}) on every read, those of its gold answers
 * ({@link DatasetSpec#goldFields()}) where the read needs them ({@link GoldFields#REQUIRED}). A record without them is
 * refused, naming the registered dataset whose fields it has: read under the wrong name a file would load with empty
 * gold answers and score 0 on every question (RAMDocs read as NQ-open).
 */
final class FieldCheck {

    private static final int FIELDS_SHOWN = 8;

    private final String dataset;
    private final GoldFields gold;
    private final List<List<String>> format;
    private final List<List<String>> answers;

    private FieldCheck(String dataset, GoldFields gold, DatasetSpec spec) {
        this.dataset = dataset;
        this.gold = gold;
        this.format = spec == null ? List.of() : groups(spec.fields());
        this.answers = spec == null || gold == GoldFields.OPTIONAL ? List.of() : groups(spec.goldFields());
    }

    /** The check of a registered dataset, with or without its gold fields; none for a name the registry does not know. */
    static FieldCheck of(String dataset, GoldFields gold) {
        return new FieldCheck(dataset, gold, Datasets.find(dataset));
    }

    /** Refuses a record that lacks one of the dataset's fields (its gold fields only when they are required). */
    void require(Record rec) {
        List<String> missingFormat = missing(format, rec.node());
        List<String> missingGold = missing(answers, rec.node());
        if (missingFormat.isEmpty() && missingGold.isEmpty()) {
            return;
        }
        List<String> missing = new ArrayList<>(missingFormat);
        missing.addAll(missingGold);
        String fields = "field" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing);
        List<String> likely = likely(rec, gold);
        if (!likely.isEmpty()) {
            throw rec.error("not a " + dataset + " record: missing " + fields + "; it has the fields of "
                    + String.join(" or ", likely) + " (--dataset " + likely.getFirst() + ")");
        }
        if (missingFormat.isEmpty()) {
            // the dataset's own record, without its answers: an unlabelled split, which can be indexed but not scored
            throw rec.error(dataset + " record without its gold answers: missing " + fields + "; this command scores"
                    + " answers against them (an unlabelled split can only be indexed: ./veracity index --format dataset"
                    + " --dataset " + dataset + ")");
        }
        List<String> has = new ArrayList<>();
        rec.node().fieldNames().forEachRemaining(has::add);
        DatasetSpec spec = Datasets.find(dataset);
        List<String> carried = new ArrayList<>(spec.fields());
        if (gold == GoldFields.REQUIRED) {
            carried.addAll(spec.goldFields());
        }
        throw rec.error("not a " + dataset + " record: missing " + fields + " (" + dataset + " records carry "
                + String.join(", ", carried) + "; this one has " + (has.isEmpty() ? "no field" : String.join(", ",
                has.subList(0, Math.min(FIELDS_SHOWN, has.size()))) + (has.size() > FIELDS_SHOWN ? ", ..." : "")) + ")");
    }

    /**
     * The registered datasets whose fields the record has (their gold fields too where {@code gold} requires them) and
     * whose loader reads it, those whose declared fields it matches most first (a RAMDocs record also has AmbigDocs'
     * question and documents); ties are all named, in registry order. Only called for a refused record: it reads the
     * record once per candidate.
     */
    static List<String> likely(Record rec, GoldFields gold) {
        List<String> best = new ArrayList<>();
        int most = 0;
        for (DatasetSpec spec : Datasets.specs()) {
            List<List<String>> f = groups(spec.fields());
            List<List<String>> g = groups(spec.goldFields());
            int goldPresent = g.size() - missing(g, rec.node()).size();
            int matched = f.size() + goldPresent;
            // one field (a question) says nothing about the format
            if (matched < 2 || matched < most || !missing(f, rec.node()).isEmpty()
                    || (gold == GoldFields.REQUIRED && goldPresent < g.size()) || !reads(spec, rec)) {
                continue;
            }
            if (matched > most) {
                best.clear();
                most = matched;
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
