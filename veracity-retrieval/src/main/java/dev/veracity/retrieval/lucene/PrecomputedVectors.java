package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.embed.NpyFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Passage vectors computed elsewhere (a GPU, FlashRAG's index builder) and imported into the HNSW index: row {@code i}
 * of a float32 {@link NpyFile} is the vector of the {@code i}-th passage of the corpus, or, with an ids file (one
 * passage id per line, in row order), of the passage with the {@code i}-th id. Rows are L2-normalised as they are
 * read, as the index's own vectors are (dot product = cosine).
 *
 * <p>Everything that can be checked before indexing is checked in {@link #open}: the file's format, the dimension
 * against the model's when the model is one Veracity runs, the ids' count against the rows, duplicate ids. What only
 * the corpus can tell fails as soon as it shows (a passage past the last row, an id with no row) or at the end (rows
 * left over), and the index is then not finished (no {@link IndexMetadata#FILE}).
 */
public final class PrecomputedVectors implements PassageVectors, AutoCloseable {

    /** Dimensions of the models Veracity embeds with in process. */
    private static final Map<String, Integer> KNOWN = Map.of(LocalEmbedders.BGE_SMALL, 384, LocalEmbedders.E5_SMALL, 384);

    private final NpyFile npy;
    private final String model;
    private final Map<String, Integer> rowOfId;

    private PrecomputedVectors(NpyFile npy, String model, Map<String, Integer> rowOfId) {
        this.npy = npy;
        this.model = model;
        this.rowOfId = rowOfId;
    }

    /**
     * @param npy   the vectors, {@code (passages, dimension)} float32
     * @param ids   a file of passage ids, one per line in row order; null when rows follow the corpus order
     * @param model the model that computed them, recorded in the index so that queries are embedded by it
     */
    public static PrecomputedVectors open(Path npy, Path ids, String model) throws IOException {
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("name the model that computed " + npy
                    + " (queries must be embedded by it): --embedding-model NAME");
        }
        NpyFile file = NpyFile.open(npy);
        try {
            Integer known = KNOWN.get(model);
            if (known != null && known != file.dimension()) {
                throw new IllegalArgumentException(npy + " holds " + file.dimension() + "-dimensional vectors, but "
                        + model + " makes " + known + "-dimensional ones: wrong file or wrong --embedding-model");
            }
            return new PrecomputedVectors(file, model, ids == null ? null : readIds(ids, file));
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** Id to row; the file must hold exactly one distinct id per row. */
    private static Map<String, Integer> readIds(Path ids, NpyFile npy) throws IOException {
        if (npy.rows() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(npy.file() + ": too many rows for an ids file");
        }
        Map<String, Integer> rows = new HashMap<>((int) Math.min(npy.rows() * 4 / 3 + 1, Integer.MAX_VALUE));
        int n = 0;
        try (Stream<String> lines = Files.lines(ids)) {
            for (String line : (Iterable<String>) lines::iterator) {
                String id = line.strip();
                if (id.isEmpty()) {
                    continue;
                }
                if (rows.putIfAbsent(id, n) != null) {
                    throw new IllegalArgumentException(ids + ": passage id '" + id + "' is listed twice (rows "
                            + rows.get(id) + " and " + n + ")");
                }
                n++;
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException(ids + ": no such file");
        }
        if (n != npy.rows()) {
            throw new IllegalArgumentException(ids + " lists " + n + " passage ids but " + npy.file() + " has "
                    + npy.rows() + " rows: one id per row, in row order");
        }
        return rows;
    }

    @Override
    public String model() {
        return model;
    }

    @Override
    public int dimension() {
        return npy.dimension();
    }

    @Override
    public List<float[]> vectors(long first, List<Document> passages) {
        List<float[]> out = new ArrayList<>(passages.size());
        for (int i = 0; i < passages.size(); i++) {
            long row;
            if (rowOfId == null) {
                row = first + i;
                if (row >= npy.rows()) {
                    throw new IllegalStateException("the corpus has more passages than " + npy.file() + " has rows ("
                            + npy.rows() + "): the vectors do not line up with the passages");
                }
            } else {
                Integer r = rowOfId.get(passages.get(i).id());
                if (r == null) {
                    throw new IllegalStateException("passage '" + passages.get(i).id() + "' has no vector: its id is not"
                            + " in the ids file");
                }
                row = r;
            }
            out.add(unit(npy.row(row)));
        }
        return out;
    }

    @Override
    public void finish(long passages) {
        if (passages != npy.rows()) {
            throw new IllegalStateException("the corpus has " + passages + " passages but " + npy.file() + " has "
                    + npy.rows() + " rows: the vectors are not those of this corpus; the index is left unfinished (delete its"
                    + " folder before building it again)");
        }
    }

    private static float[] unit(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm == 0 || !Double.isFinite(norm)) {
            throw new IllegalStateException("a zero or non-finite vector cannot be indexed for cosine search");
        }
        norm = Math.sqrt(norm);
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (v[i] / norm);
        }
        return v;
    }

    @Override
    public void close() throws IOException {
        npy.close();
    }
}
