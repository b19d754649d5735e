package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentSourceTest {

    private static QaMethod method(boolean needsDocuments) {
        return new QaMethod() {
            @Override
            public String name() {
                return needsDocuments ? "rag" : "closed";
            }

            @Override
            public MethodAnswer answer(QaItem item, MethodContext context) {
                throw new UnsupportedOperationException();
            }

            @Override
            public MethodSpec spec() {
                return needsDocuments ? MethodSpec.named(name()) : MethodSpec.named(name()).withNeeds();
            }
        };
    }

    private static final QaItem WITH_DOCS = QaItem.of("q1", "who wrote hamlet", List.of("Shakespeare"))
            .withDocuments(List.of(Document.of("own", "", "the dataset's passage")));

    private static final Retriever RETRIEVER = Retriever.of((q, k) -> List.of(
            new Passage("p1", "Hamlet", "Written by William Shakespeare.", 2.5),
            new Passage("p2", "", "Other text.", 1.0)).subList(0, Math.min(k, 2)));

    @Test
    void anIndexReplacesTheDatasetsPassagesAndClosedBookMethodsGetNone() {
        DocumentSource index = DocumentSource.index(RETRIEVER, Path.of("idx"), "abc", 1, "bm25");
        DocumentSource.Prepared p = index.prepare(method(true), WITH_DOCS);
        assertThat(p.item().documents()).extracting(Document::id).containsExactly("p1");
        assertThat(p.item().documents().getFirst().label("score")).isEqualTo("2.5");
        assertThat(index.kind(method(true))).isEqualTo("index");

        assertThat(DocumentSource.dataset().prepare(method(true), WITH_DOCS).item().documents())
                .extracting(Document::id).containsExactly("own");
        assertThat(DocumentSource.dataset().prepare(method(false), WITH_DOCS).item().documents()).isEmpty();
        assertThat(index.prepare(method(false), WITH_DOCS).item().documents()).isEmpty();
        assertThat(index.kind(method(false))).isEqualTo("none");
    }

    @Test
    void aRagMethodWithoutPassagesNeedsAnIndex() {
        QaItem bare = QaItem.of("q", "who wrote hamlet", List.of("Shakespeare"));
        assertThatThrownBy(() -> DocumentSource.dataset().requireDocuments(method(true), "nq-open", bare))
                .hasMessageContaining("rag needs documents").hasMessageContaining("--index DIR");
        DocumentSource.dataset().requireDocuments(method(false), "nq-open", bare);
        DocumentSource.index(RETRIEVER, Path.of("idx"), null, 5, "bm25").requireDocuments(method(true), "nq-open", bare);
        assertThatThrownBy(() -> DocumentSource.index(RETRIEVER, Path.of("idx"), null, 0, "bm25")).hasMessageContaining("--k");
    }

    @Test
    void answerRecallMatchesNormalisedAnswersOnWordBoundaries() {
        List<Document> docs = List.of(Document.of("1", "", "The play was written by William Shakespeare, in 1600."));
        assertThat(DocumentSource.containsAnswer(docs, List.of("william shakespeare"))).isTrue();
        assertThat(DocumentSource.containsAnswer(docs, List.of("The 1600"))).isTrue(); // articles dropped
        assertThat(DocumentSource.containsAnswer(docs, List.of("160"))).isFalse();
        assertThat(DocumentSource.containsAnswer(docs, List.of("", "Marlowe"))).isFalse();
    }
}
