package dev.veracity.method;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Filling a prompt: the named placeholders only, each value as it is, in one pass. */
class PromptTemplateTest {

    @Test
    void onlyTheNamesGivenAreFilledAndEveryValueGoesInAsItIs() {
        PromptTemplate t = PromptTemplate.of("t", "Q: {question}\nDocs: {documents}\nExplanation: {}\nKeep {unknown}.\n{question}");
        String document = "costs $5 or \\$1, see {question} and $0 {documents}";

        String filled = t.fill(Map.of("question", "Who? $1", "documents", document));

        assertThat(filled).isEqualTo("Q: Who? $1\nDocs: " + document + "\nExplanation: {}\nKeep {unknown}.\nWho? $1");
    }

    @Test
    void aTemplateWithoutPlaceholdersOrWithOneAtEitherEndIsWhole() {
        assertThat(PromptTemplate.of("t", "no braces at all").fill(Map.of("question", "x"))).isEqualTo("no braces at all");
        assertThat(PromptTemplate.of("t", "{question}").fill(Map.of("question", "x"))).isEqualTo("x");
        assertThat(PromptTemplate.of("t", "{a}-{b}").fill(Map.of("a", "", "b", "2"))).isEqualTo("-2");
        assertThat(PromptTemplate.of("t", "").fill(Map.of())).isEmpty();
    }
}
