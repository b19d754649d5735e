package dev.veracity.qa;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One benchmark question with what methods and metrics need, in one shape for every dataset.
 *
 * @param id        the dataset's id, or a stable one made from the position when it has none
 * @param question  the question (a FEVER claim for fact verification)
 * @param documents passages that come with the question (empty when a method must retrieve)
 * @param gold      the correct answers, each with its aliases (FEVER: the label)
 * @param wrong     answers known to be wrong (RAMDocs misinformation), empty when unknown
 * @param queryTime when the question was asked (CRAG), or null
 * @param metadata  other fields worth keeping (type, domain, hops, ...)
 * @param raw       the record as the dataset wrote it
 */
public record QaItem(String id, String question, List<Document> documents, List<GoldAnswer> gold, List<String> wrong,
                     String queryTime, Map<String, String> metadata, JsonNode raw) {

    public QaItem {
        id = Objects.requireNonNull(id, "id");
        question = Objects.requireNonNullElse(question, "");
        documents = documents == null ? List.of() : List.copyOf(documents);
        gold = gold == null ? List.of() : List.copyOf(gold);
        wrong = wrong == null ? List.of() : List.copyOf(wrong);
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        raw = raw == null ? MissingNode.getInstance() : raw;
    }

    /** A minimal item: id, question, one gold answer with aliases. */
    public static QaItem of(String id, String question, List<String> goldForms) {
        return new QaItem(id, question, List.of(), List.of(GoldAnswer.anyOf(goldForms)), List.of(), null, Map.of(), null);
    }

    /**
     * The id of a question asked live ({@code serve}, the LangChain4j model): a hash of the question and its documents,
     * because methods seed their choices with the id (MADAM-RAG's shuffle, Speculative RAG's subsets), so the same
     * question with the same documents gets the same answer, as the same dataset question does in {@code eval}.
     */
    public static String contentId(String question, List<Document> documents) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            sha.update(question.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            for (Document d : documents == null ? List.<Document>of() : documents) {
                for (String part : List.of(d.id(), d.title(), d.text())) {
                    sha.update((byte) 0);
                    sha.update(part.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            return "q-" + java.util.HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** Every accepted form of every gold answer, for metrics that take a flat alias list. */
    public List<String> goldForms() {
        List<String> out = new ArrayList<>();
        gold.forEach(g -> out.addAll(g.forms()));
        return out;
    }

    /** The canonical text of each gold answer, for multi-answer metrics. */
    public List<String> goldTexts() {
        return gold.stream().map(GoldAnswer::text).toList();
    }

    public QaItem withDocuments(List<Document> docs) {
        return new QaItem(id, question, docs, gold, wrong, queryTime, metadata, raw);
    }
}
