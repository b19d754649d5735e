package dev.veracity.methods.march;

import dev.veracity.qa.Document;
import java.util.List;

/**
 * Everything the Checker may see: the documents and the Proposer's questions. The information barrier of section
 * 2.2 ("strictly blinded to the Solver's response y and the corresponding claims a_i") is structural: this type has
 * no field that could carry the response or a claimed answer, and {@link Checker} builds its prompt from it alone.
 */
public record CheckerInput(List<Document> documents, List<String> questions) {

    public CheckerInput {
        documents = documents == null ? List.of() : List.copyOf(documents);
        questions = questions == null ? List.of() : List.copyOf(questions);
    }
}
