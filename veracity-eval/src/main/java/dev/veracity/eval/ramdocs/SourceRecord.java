package dev.veracity.eval.ramdocs;

import java.util.List;
import java.util.Objects;

/**
 * An ambiguous question with its valid answers, each with the documents that support it, and optional noise.
 *
 * @param question the question
 * @param answers  the valid answers (one per disambiguation)
 * @param noise    documents irrelevant to the question or of low quality (may be empty)
 */
public record SourceRecord(String question, List<Answer> answers, List<String> noise) {

    public SourceRecord {
        question = Objects.requireNonNullElse(question, "");
        answers = List.copyOf(answers);
        noise = noise == null ? List.of() : List.copyOf(noise);
    }

    /**
     * One valid answer.
     *
     * @param answer    the answer text as it appears in its documents
     * @param entity    the disambiguated entity (AmbigDocs' document title), or "" when unknown
     * @param documents the supporting documents' texts
     */
    public record Answer(String answer, String entity, List<String> documents) {
        public Answer {
            answer = Objects.requireNonNullElse(answer, "");
            entity = Objects.requireNonNullElse(entity, "");
            documents = List.copyOf(documents);
        }
    }
}
