package dev.veracity.eval.run;

import dev.veracity.method.QaMethod;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.Retriever;
import java.io.IOException;

/**
 * Where an {@link EvalJob}'s questions get documents beyond the dataset's own, as the front end opens them: a
 * retrieval index whose top passages replace a question's documents, a page store the ReAct agents act in, and the
 * embedder a method or a dense search needs. The CLI's retrieval flags are one; every check here runs before the
 * first model call.
 */
public interface JobDocuments {

    /** Whether a retrieval index is given (a method that searches needs one). */
    boolean indexed();

    /** Checks the settings (the number of passages, ...) before anything opens; a mistake is one line. */
    void validate();

    /**
     * The page store, open, or null without one; a folder that is none, or a page store for a method that reads no
     * pages, is an error here.
     */
    PageSource openPages(QaMethod method) throws IOException;

    /** How {@code run.json} records the documents ({@code dataset}, or the index with its k and mode). */
    String describe();

    /** How {@code run.json} records the open page store (its folder and its pages' checksum). */
    String describePages(PageSource open);

    /** The embedder the method or a dense search needs, else null (loading one costs seconds). */
    Embedder embedder(QaMethod method);

    /** The index, open for the run, or null without one. */
    Index openIndex(Embedder embedder) throws IOException;

    /**
     * The dataset's own passages and nothing beyond them: no index, no page store, no embedder. A front end that adds
     * one thing (the demo's embedder) overrides that method only.
     */
    class OwnPassages implements JobDocuments {

        @Override
        public boolean indexed() {
            return false;
        }

        @Override
        public void validate() {
        }

        @Override
        public PageSource openPages(QaMethod method) {
            return null;
        }

        @Override
        public String describe() {
            return "dataset";
        }

        @Override
        public String describePages(PageSource open) {
            return "none";
        }

        @Override
        public Embedder embedder(QaMethod method) {
            return null;
        }

        @Override
        public Index openIndex(Embedder embedder) {
            return null;
        }
    }

    /** An open retrieval index: its retriever and the document source the run records. */
    interface Index extends AutoCloseable {

        Retriever retriever();

        DocumentSource source();

        @Override
        void close() throws IOException;
    }
}
