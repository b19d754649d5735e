package dev.veracity.eval.run;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.Summary;
import dev.veracity.eval.data.Datasets;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.AnswerNormalizer;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where a question's documents come from, decided once per run, applied per question by the runner so that methods
 * stay unaware of it:
 * <ul>
 *   <li>{@code dataset}: the passages that come with the question ({@link QaItem#documents()}: RAMDocs, HotpotQA
 *       paragraphs, CRAG pages, FaithEval);</li>
 *   <li>{@code index}: the top {@code k} passages a retriever finds for the question in an index. They REPLACE the
 *       dataset's own passages when it has some (open-domain retrieval over the index; the run record says so with
 *       {@code replaces_dataset_documents});</li>
 *   <li>{@code none}: a closed-book method (no {@link dev.veracity.method.Capability#DOCUMENTS} need) gets no documents at all.</li>
 * </ul>
 */
public final class DocumentSource {

    /** The default number of passages retrieved per question: FlashRAG's {@code retrieval_topk} (5). */
    public static final int DEFAULT_K = 5;

    private final Retriever retriever;
    private final String index;
    private final String corpusSha256;
    private final int k;
    private final String mode;

    private DocumentSource(Retriever retriever, String index, String corpusSha256, int k, String mode) {
        this.retriever = retriever;
        this.index = index;
        this.corpusSha256 = corpusSha256;
        this.k = k;
        this.mode = mode;
    }

    /** The dataset's own passages. */
    public static DocumentSource dataset() {
        return new DocumentSource(null, null, null, 0, null);
    }

    /**
     * The top {@code k} passages of {@code retriever} for each question.
     *
     * @param index        the index's path, for the run record
     * @param corpusSha256 the index's corpus checksum (null for an index built before checksums)
     * @param mode         bm25, dense or hybrid, for the run record
     */
    public static DocumentSource index(Retriever retriever, Path index, String corpusSha256, int k, String mode) {
        return index(retriever, String.valueOf(index), corpusSha256, k, mode);
    }

    /** Documents from an index named by its location (a folder's path, or an OpenSearch URL without credentials). */
    public static DocumentSource index(Retriever retriever, String index, String corpusSha256, int k, String mode) {
        if (k < 1) {
            throw new IllegalArgumentException("--k must be >= 1, was " + k);
        }
        return new DocumentSource(Objects.requireNonNull(retriever, "retriever"), index, corpusSha256, k, mode);
    }

    public boolean retrieves() {
        return retriever != null;
    }

    /** {@code dataset}, {@code index} or {@code none} for this method. */
    public String kind(QaMethod method) {
        return !method.needs(Capability.DOCUMENTS) ? "none" : retrieves() ? "index" : "dataset";
    }

    /**
     * Fails, before any model call, when the method needs documents, none will be retrieved and the dataset's first
     * question comes without any: the run would otherwise be closed book under a RAG method's name.
     */
    public void requireDocuments(QaMethod method, String dataset, Path data) {
        if (!method.needs(Capability.DOCUMENTS) || retrieves()) {
            return;
        }
        Optional<QaItem> first;
        try (Stream<QaItem> s = Datasets.stream(dataset, data)) {
            first = s.findFirst();
        }
        requireDocuments(method, dataset, first.orElse(null));
    }

    void requireDocuments(QaMethod method, String dataset, QaItem first) {
        if (method.needs(Capability.DOCUMENTS) && !retrieves() && first != null && first.documents().isEmpty()) {
            throw new IllegalArgumentException("method " + method.name() + " needs documents and " + dataset
                    + " questions come without any: pass --index DIR (build one with ./veracity index) [--k N"
                    + " --search-mode bm25|dense|hybrid], or use a closed-book method (no-rag, cot, cot-sc)");
        }
    }

    /** A question as the method gets it, with what was retrieved for it and how long that took. */
    public record Prepared(QaItem item, List<Passage> retrieved, long retrievalNanos) {
    }

    /** The question with its documents from this source (none for a closed-book method). */
    public Prepared prepare(QaMethod method, QaItem item) {
        if (!method.needs(Capability.DOCUMENTS)) {
            return new Prepared(item.withDocuments(List.of()), List.of(), 0);
        }
        if (!retrieves()) {
            return new Prepared(item, List.of(), 0);
        }
        long t0 = System.nanoTime();
        List<Passage> hits = retriever.search(item.question(), k);
        long nanos = System.nanoTime() - t0;
        List<Document> docs = hits.stream().map(p -> new Document(p.id(), p.title(), p.text(),
                Map.of("source", "index", "score", Double.toString(p.score())))).toList();
        return new Prepared(item.withDocuments(docs), hits, nanos);
    }

    /** The {@code retrieval} object of a result line. */
    ResultLine.Retrieval resultLine(QaMethod method, Prepared p, List<String> gold) {
        String kind = kind(method);
        boolean index = kind.equals("index");
        return new ResultLine.Retrieval(kind,
                index ? p.retrieved().stream().map(Passage::id).toList() : null,
                index ? p.retrieved().stream().map(Passage::score).toList() : null,
                index ? Math.round(p.retrievalNanos() / 1e4) / 100.0 : null,
                kind.equals("dataset") ? p.item().documents().size() : null,
                !kind.equals("none") && gold.stream().anyMatch(g -> !AnswerNormalizer.squad(g).isEmpty())
                        ? containsAnswer(p.item().documents(), gold) : null);
    }

    /** The {@code retrieval} object of summary.json, recall over every line of the file. */
    Summary.Retrieval summary(QaMethod method, boolean datasetHasDocuments, List<ResultLine> lines) {
        RetrievalTally t = tally(method, datasetHasDocuments);
        lines.forEach(t::add);
        return t.result();
    }

    /** {@link #summary} folded one result line at a time: constant memory over a file of any length. */
    RetrievalTally tally(QaMethod method, boolean datasetHasDocuments) {
        return new RetrievalTally(kind(method), index, corpusSha256, k, mode, datasetHasDocuments);
    }

    static final class RetrievalTally {
        private final String kind;
        private final String index;
        private final String corpusSha256;
        private final int k;
        private final String mode;
        private final boolean datasetHasDocuments;
        private long judged;
        private long found;
        private long timed;
        private double ms;

        private RetrievalTally(String kind, String index, String corpusSha256, int k, String mode,
                               boolean datasetHasDocuments) {
            this.kind = kind;
            this.index = index;
            this.corpusSha256 = corpusSha256;
            this.k = k;
            this.mode = mode;
            this.datasetHasDocuments = datasetHasDocuments;
        }

        /** A tally of the same source as a run's recorded one (a shard's, for a merge), its figures folded afresh. */
        static RetrievalTally like(Summary.Retrieval recorded) {
            return new RetrievalTally(recorded.source(), recorded.index(), recorded.corpusSha256(),
                    recorded.k() == null ? 0 : recorded.k(), recorded.mode(),
                    Boolean.TRUE.equals(recorded.replacesDatasetDocuments()));
        }

        void add(ResultLine l) {
            ResultLine.Retrieval r = l.retrieval();
            if (r != null && r.answerFound() != null) {
                judged++;
                found += r.answerFound() ? 1 : 0;
            }
            if (r != null && r.ms() != null) {
                timed++;
                ms += r.ms();
            }
        }

        Summary.Retrieval result() {
            boolean index = kind.equals("index");
            Double recall = judged > 0 ? (double) found / judged : null;
            return new Summary.Retrieval(kind, index ? this.index : null, index ? corpusSha256 : null,
                    index ? k : null, index ? mode : null, index ? datasetHasDocuments : null,
                    kind.equals("none") ? "closed-book method: no documents given" : null,
                    index ? null : recall, index ? recall : null, judged > 0 ? judged : null,
                    timed > 0 ? ms / timed : null, null);
        }
    }

    /**
     * Whether some document contains a gold answer after SQuAD normalisation, on word boundaries (as DPR's
     * {@code has_answer} matches token sequences); answers normalising to nothing are skipped.
     */
    public static boolean containsAnswer(List<Document> documents, List<String> gold) {
        List<String> answers = gold.stream().map(AnswerNormalizer::squad).filter(g -> !g.isEmpty()).toList();
        for (Document d : documents) {
            String text = " " + AnswerNormalizer.squad(d.title() + " " + d.text()) + " ";
            for (String a : answers) {
                if (text.contains(" " + a + " ")) {
                    return true;
                }
            }
        }
        return false;
    }
}
