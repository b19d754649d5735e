package dev.veracity.methods.court;

import dev.veracity.method.MethodContext;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.react.QuestionPageSource;
import java.util.ArrayList;
import java.util.List;

/**
 * The pages a question's agents act in. MuSiQue: always the question's own 20 paragraphs (Section 4.1: the agents
 * look paragraphs up by title). HotpotQA and FEVER: the page store given to the run ({@code --pages}, the paper's
 * full Wikipedia), else the question's own paragraphs (HotpotQA's distractor setting). A paragraph without a title
 * is titled "Document i" (its place among the question's documents, as the baselines number them), so that the
 * "Similar:" list can point an agent to it.
 */
final class QuestionPages implements AutoCloseable {

    private final PageSource pages;
    private final boolean own;

    private QuestionPages(PageSource pages, boolean own) {
        this.pages = pages;
        this.own = own;
    }

    static QuestionPages of(QaItem item, Task task, MethodContext ctx) {
        if (ctx.pages() != null && task != Task.MUSIQUE) {
            return new QuestionPages(ctx.pages(), false);
        }
        return new QuestionPages(QuestionPageSource.of(titled(item.documents())), true);
    }

    static List<dev.veracity.retrieval.corpus.Document> titled(List<Document> docs) {
        List<dev.veracity.retrieval.corpus.Document> out = new ArrayList<>(docs.size());
        for (int i = 0; i < docs.size(); i++) {
            Document d = docs.get(i);
            String title = d.title().isBlank() ? "Document " + (i + 1) : d.title();
            out.add(new dev.veracity.retrieval.corpus.Document(d.id(), title, d.text()));
        }
        return out;
    }

    /** The question's paragraph titles as a Python list, as ReAct prints "Similar:" (MuSiQue's prompt lists them). */
    static String titleList(QaItem item) {
        StringBuilder sb = new StringBuilder("[");
        List<dev.veracity.retrieval.corpus.Document> docs = titled(item.documents());
        for (int i = 0; i < docs.size(); i++) {
            sb.append(i > 0 ? ", " : "").append('\'').append(docs.get(i).title().replace("'", "\\'")).append('\'');
        }
        return sb.append(']').toString();
    }

    PageSource source() {
        return pages;
    }

    @Override
    public void close() {
        if (own) {
            pages.close(); // the run's store stays open for the other questions
        }
    }
}
