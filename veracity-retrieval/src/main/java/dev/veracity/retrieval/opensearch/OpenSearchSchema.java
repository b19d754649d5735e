package dev.veracity.retrieval.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.retrieval.lucene.Bm25Retriever;
import dev.veracity.retrieval.lucene.IndexFields;
import dev.veracity.retrieval.lucene.IndexMetadata;

/**
 * The index as OpenSearch holds it: our Lucene index's fields and scoring, written as settings and a mapping.
 * <ul>
 * <li>BM25 with Anserini's k1 = 0.9, b = 0.4 ({@code index.similarity}) on {@code contents} (title and text) and
 * {@code title}.</li>
 * <li>The analyser is {@link dev.veracity.retrieval.lucene.AnseriniAnalyzer}'s chain, built from OpenSearch's
 * own parts: standard tokenizer, English possessive, lower case, Lucene's English stop words ({@code _english_}),
 * Porter stemmer.</li>
 * <li>{@code vector}: a {@code knn_vector} (k-NN plugin, {@code lucene} engine: HNSW, no native library) with inner
 * product on our unit vectors, as our index's dot product.</li>
 * <li>{@code _meta.veracity}: what {@link IndexMetadata} holds beside a Lucene index, and whether the load finished.</li>
 * </ul>
 */
final class OpenSearchSchema {

    static final String SIMILARITY = "veracity_bm25";
    static final String ANALYZER = "veracity_anserini";
    static final String META = "veracity";
    /** The passage's 0-based place in the corpus: breaks fusion ties as Lucene's doc ids do. */
    static final String POSITION = "position";

    private OpenSearchSchema() {
    }

    /** The body of the create-index request: settings and mappings. {@code dimension} 0 for BM25 only. */
    static ObjectNode create(String model, int dimension, int shards) {
        ObjectNode body = OpenSearchCluster.JSON.createObjectNode();
        ObjectNode index = indexSettings(body, shards);
        if (dimension > 0) {
            index.put("knn", true);
        }
        ObjectNode mappings = body.putObject("mappings");
        ObjectNode meta = mappings.putObject("_meta").putObject(META);
        meta.put("k1", Bm25Retriever.K1).put("b", Bm25Retriever.B).put("embeddingModel", model).put("dimension", dimension)
                .put("complete", false);
        ObjectNode props = mappings.putObject("properties");
        props.putObject(IndexFields.ID).put("type", "keyword");
        props.putObject(IndexFields.TITLE).put("type", "text").put("analyzer", ANALYZER).put("similarity", SIMILARITY);
        props.putObject(IndexFields.CONTENTS).put("type", "text").put("analyzer", ANALYZER).put("similarity", SIMILARITY)
                .put("index_options", "freqs");
        props.putObject(IndexFields.RAW).put("type", "text").put("index", false);
        props.putObject(POSITION).put("type", "long").put("index", false);
        if (dimension > 0) {
            ObjectNode method = props.putObject(IndexFields.VECTOR).put("type", "knn_vector").put("dimension", dimension)
                    .putObject("method").put("name", "hnsw").put("engine", "lucene").put("space_type", "innerproduct");
            // Lucene's HNSW defaults, as our index builds it
            method.putObject("parameters").put("m", 16).put("ef_construction", 100);
        }
        return body;
    }

    /**
     * Puts {@code settings.index} in a create-index body: the shards, our BM25 similarity ({@value #SIMILARITY}) and
     * Anserini's analyser ({@value #ANALYZER}); returns the {@code index} object.
     */
    static ObjectNode indexSettings(ObjectNode body, int shards) {
        ObjectNode index = body.putObject("settings").putObject("index");
        index.put("number_of_shards", shards);
        index.putObject("similarity").putObject(SIMILARITY).put("type", "BM25")
                .put("k1", Bm25Retriever.K1).put("b", Bm25Retriever.B);
        ObjectNode analysis = index.putObject("analysis");
        ObjectNode filter = analysis.putObject("filter");
        filter.putObject("veracity_possessive").put("type", "stemmer").put("language", "possessive_english");
        filter.putObject("veracity_stop").put("type", "stop").put("stopwords", "_english_");
        analysis.putObject("analyzer").putObject(ANALYZER).put("type", "custom").put("tokenizer", "standard")
                .putArray("filter").add("veracity_possessive").add("lowercase").add("veracity_stop").add("porter_stem");
        return index;
    }

    /** The {@code _source} of one passage; {@code vector} null for BM25 only. */
    static ObjectNode source(dev.veracity.retrieval.corpus.Document d, long position, float[] vector) {
        ObjectNode doc = OpenSearchCluster.JSON.createObjectNode();
        doc.put(POSITION, position).put(IndexFields.ID, d.id()).put(IndexFields.TITLE, d.title()).put(IndexFields.CONTENTS, IndexFields.contents(d))
                .put(IndexFields.RAW, d.text());
        if (vector != null) {
            var array = doc.putArray(IndexFields.VECTOR);
            for (float f : vector) {
                array.add(f);
            }
        }
        return doc;
    }

    /**
     * Why an existing index cannot take or serve this corpus, as a predicate of "index NAME ..." (another similarity or
     * BM25 parameters, another vector dimension or model, no Veracity metadata at all), or null when it can.
     * {@code dimension} -1 accepts any.
     */
    static String mismatch(JsonNode settings, JsonNode mapping, String model, int dimension) {
        JsonNode meta = mapping.path("_meta").path(META);
        if (meta.isMissingNode()) {
            return "was not made by ./veracity index (no _meta." + META + " in its mapping)";
        }
        JsonNode similarity = settings.path("index").path("similarity").path(SIMILARITY);
        String contentsSimilarity = mapping.path("properties").path(IndexFields.CONTENTS).path("similarity").asText("");
        if (!SIMILARITY.equals(contentsSimilarity) || !"BM25".equals(similarity.path("type").asText())
                || Math.abs(similarity.path("k1").asDouble(-1) - Bm25Retriever.K1) > 1e-6
                || Math.abs(similarity.path("b").asDouble(-1) - Bm25Retriever.B) > 1e-6) {
            return "does not score contents by BM25 k1=" + Bm25Retriever.K1 + " b=" + Bm25Retriever.B
                    + " (similarity " + (contentsSimilarity.isEmpty() ? "default" : contentsSimilarity) + " "
                    + similarity.path("type").asText("?") + " k1=" + similarity.path("k1").asText("?") + " b="
                    + similarity.path("b").asText("?") + ")";
        }
        int has = mapping.path("properties").path(IndexFields.VECTOR).path("dimension").asInt(0);
        if (dimension >= 0 && has != dimension) {
            return has == 0 ? "holds no vectors, but this load has " + dimension + "-dimension vectors"
                    : "has " + has + "-dimension vectors, " + (dimension == 0 ? "but this load has none"
                    : "not " + dimension);
        }
        String metaModel = meta.path("embeddingModel").isNull() ? null : meta.path("embeddingModel").asText(null);
        if (dimension > 0 && model != null && metaModel != null && !metaModel.equals(model)) {
            return "has vectors from " + metaModel + ", not " + model;
        }
        return null;
    }

    /** The finished index's metadata, or null while its load is unfinished. */
    static IndexMetadata metadata(JsonNode mapping) {
        JsonNode meta = mapping.path("_meta").path(META);
        if (!meta.path("complete").asBoolean(false)) {
            return null;
        }
        String model = meta.path("embeddingModel").isNull() ? null : meta.path("embeddingModel").asText(null);
        return new IndexMetadata(meta.path("passages").asLong(), model, meta.path("dimension").asInt(0),
                meta.path("corpusSha256").asText(null));
    }
}
