package dev.veracity.method;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every front end reports of an answer: whether it abstained, and a live question's id. */
class MethodAnswerTest {

    @Test
    void abstainsByItsSignalByPolicyOrByItsText() {
        assertThat(MethodAnswer.of("Paris").abstained()).isFalse();
        assertThat(MethodAnswer.of("I don't know").abstained()).isTrue();
        assertThat(new MethodAnswer("Paris", List.of(), List.of(), Map.of("abstained", 1.0)).abstained()).isTrue();
        assertThat(new MethodAnswer("Paris", List.of(), List.of(), Map.of("abstained_by_policy", 1.0)).abstained())
                .isTrue();
        assertThat(new MethodAnswer("Paris", List.of(), List.of(), Map.of("abstained", 0.0)).abstained()).isFalse();
    }

    @Test
    void aLiveQuestionsIdDependsOnItsTextAndDocumentsOnly() {
        List<Document> docs = List.of(Document.of("1", "", "The Eiffel Tower is in Paris."));
        String id = QaItem.contentId("Where is it?", docs);
        assertThat(id).matches("q-[0-9a-f]{16}").isEqualTo(QaItem.contentId("Where is it?", List.copyOf(docs)));
        assertThat(QaItem.contentId("Where is it?", List.of())).isNotEqualTo(id)
                .isEqualTo(QaItem.contentId("Where is it?", null));
        assertThat(QaItem.contentId("Where was it?", docs)).isNotEqualTo(id);
        // fields are separated, so moving text from one field to the next changes the id
        assertThat(QaItem.contentId("q", List.of(Document.of("1", "ab", "c"))))
                .isNotEqualTo(QaItem.contentId("q", List.of(Document.of("1", "a", "bc"))));
    }
}
