package dev.veracity.retrieval.corpus;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.retrieval.Passage;
import dev.veracity.text.StrictUtf8Reader;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.jsoup.Jsoup;

/**
 * Reads corpus files as a stream of {@link Document}s, one pass, constant memory (the files can be tens of GB).
 * Files ending in {@code .bz2} or {@code .gz} are decompressed on the fly. A malformed record fails with its
 * file and line number, and so does text that is not UTF-8 ({@link StrictUtf8Reader}: never indexed as U+FFFD).
 */
public final class CorpusReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private CorpusReader() {
    }

    /** Hands every document of the file to {@code sink}, in file order. */
    public static void read(Path file, CorpusFormat format, Consumer<Document> sink) throws IOException {
        read(file, format, sink, null);
    }

    /**
     * Hands every document of the file to {@code sink}, in file order, telling {@code fileBytes} (when not null) how
     * many bytes of the file (compressed, for a compressed one) were read so far, about every megabyte: with the
     * file's size, how far the reading has come.
     */
    public static void read(Path file, CorpusFormat format, Consumer<Document> sink, LongConsumer fileBytes)
            throws IOException {
        switch (format) {
            case JSONL -> readJsonl(file, fileBytes, sink);
            case FLASHRAG -> readFlashRag(file, fileBytes, sink);
            case DPR_TSV -> readDprTsv(file, fileBytes, sink);
            case CRAG -> readCrag(file, fileBytes, sink);
            case DATASET -> readDataset(file, fileBytes, sink);
        }
    }

    /** All documents of the file in a list: for small corpora and tests. */
    public static List<Document> readAll(Path file, CorpusFormat format) throws IOException {
        List<Document> out = new ArrayList<>();
        read(file, format, out::add);
        return out;
    }

    static void readJsonl(Path file, LongConsumer fileBytes, Consumer<Document> sink) throws IOException {
        forEachLine(file, fileBytes, (line, no) -> {
            JsonNode n = parse(file, no, line);
            String id = firstText(n, "_id", "id", "docid");
            if (id == null) {
                throw new CorpusFormatException(file, no, "no \"_id\" or \"id\" field");
            }
            sink.accept(document(id, n));
        });
    }

    /**
     * A record's passage: {@code title} and {@code text} ({@code contents} or {@code paragraph_text} when there is no
     * {@code text}), or, with neither title nor text, FlashRAG's and Search-R1's one-field {@code contents} ("title" in
     * quotes on the first line, then the text), split so that the title is not lost in the text. A {@code contents}
     * without a quoted first line (Pyserini's, plain text) is all text: its first paragraph is no title.
     */
    static Document document(String id, JsonNode n) {
        String contents = firstText(n, "text", "title") == null ? firstText(n, "contents") : null;
        if (contents != null && Passage.hasQuotedTitle(contents)) {
            return flashRagDocument(id, contents);
        }
        return new Document(id, firstText(n, "title"), firstText(n, "text", "contents", "paragraph_text"));
    }

    static void readFlashRag(Path file, LongConsumer fileBytes, Consumer<Document> sink) throws IOException {
        forEachLine(file, fileBytes, (line, no) -> {
            JsonNode n = parse(file, no, line);
            String id = firstText(n, "id", "_id", "docid");
            if (id == null) {
                throw new CorpusFormatException(file, no, "no \"id\" field");
            }
            String contents = firstText(n, "contents");
            if (contents == null) {
                throw new CorpusFormatException(file, no, "no \"contents\" field");
            }
            sink.accept(flashRagDocument(id, contents));
        });
    }

    /** FlashRAG's {@code contents}: the title up to the first newline (quotes around it dropped), then the text. */
    static Document flashRagDocument(String id, String contents) {
        Passage p = Passage.fromContents(id, contents, 0);
        return new Document(id, p.title(), p.text());
    }

    static void readDprTsv(Path file, LongConsumer fileBytes, Consumer<Document> sink) throws IOException {
        forEachLine(file, fileBytes, (line, no) -> {
            String[] cols = line.split("\t", -1);
            if (no == 1 && cols.length > 0 && cols[0].equalsIgnoreCase("id")) {
                return; // the header
            }
            if (cols.length < 3) {
                throw new CorpusFormatException(file, no, "expected 3 tab-separated columns (id, text, title), got "
                        + cols.length);
            }
            sink.accept(new Document(cols[0], unquoteTsv(cols[2]), unquoteTsv(cols[1])));
        });
    }

    /** DPR's TSV quotes a field holding quotes as {@code "..."} with inner quotes doubled (csv module style). */
    static String unquoteTsv(String field) {
        if (field.length() >= 2 && field.startsWith("\"") && field.endsWith("\"")) {
            return field.substring(1, field.length() - 1).replace("\"\"", "\"");
        }
        return field;
    }

    static void readCrag(Path file, LongConsumer fileBytes, Consumer<Document> sink) throws IOException {
        forEachLine(file, fileBytes, (line, no) -> {
            JsonNode n = parse(file, no, line);
            String qid = n.path("interaction_id").asText("line" + no);
            JsonNode results = n.path("search_results");
            for (int r = 0; r < results.size(); r++) {
                JsonNode page = results.get(r);
                String html = page.path("page_result").asText("");
                if (html.isBlank()) {
                    continue;
                }
                String title = page.path("page_name").asText("");
                List<String> passages = Passages.split(Jsoup.parse(html).text(), Passages.DPR_WORDS);
                for (int p = 0; p < passages.size(); p++) {
                    sink.accept(new Document(qid + "-" + r + "-" + p, title, passages.get(p)));
                }
            }
        });
    }

    /**
     * A dataset file's documents: JSON lines or one JSON array of records, each with a {@code documents} array of
     * {@code {text, title?}} (RAMDocs) or a HotpotQA {@code context}, either {@code [[title, [sentences]]]} or
     * HuggingFace's {@code {"title": [...], "sentences": [[...]]}}. Ids are {@code record-document}, 0-based.
     */
    static void readDataset(Path file, LongConsumer fileBytes, Consumer<Document> sink) throws IOException {
        try (JsonParser p = JSON.getFactory().createParser(new StrictUtf8Reader(open(file, fileBytes)))) {
            JsonToken first = p.nextToken();
            boolean array = first == JsonToken.START_ARRAY;
            if (array) {
                p.nextToken();
            }
            int record = 0;
            while (p.currentToken() != null && p.currentToken() != JsonToken.END_ARRAY) {
                JsonNode n = JSON.readTree(p);
                datasetDocuments(n, record++, sink);
                p.nextToken();
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new CorpusFormatException(file, e.getLocation() == null ? 0 : (int) e.getLocation().getLineNr(),
                    "not JSON lines or a JSON array of records: " + e.getOriginalMessage());
        } catch (StrictUtf8Reader.NotUtf8Exception e) {
            throw CorpusFormatException.notUtf8(file, e);
        }
    }

    static void datasetDocuments(JsonNode n, int record, Consumer<Document> sink) {
        int d = 0;
        for (JsonNode doc : n.path("documents")) {
            String id = record + "-" + d++;
            sink.accept(doc.isTextual() ? new Document(id, "", doc.asText()) : document(id, doc));
        }
        JsonNode ctx = n.path("context");
        if (ctx.isArray()) {
            for (JsonNode pair : ctx) {
                if (pair.isArray() && pair.size() == 2) {
                    sink.accept(new Document(record + "-" + d++, pair.get(0).asText(), joinSentences(pair.get(1))));
                }
            }
        } else if (ctx.isObject() && ctx.path("title").isArray()) {
            JsonNode titles = ctx.get("title");
            JsonNode sentences = ctx.path("sentences");
            for (int i = 0; i < titles.size(); i++) {
                sink.accept(new Document(record + "-" + d++, titles.get(i).asText(), joinSentences(sentences.path(i))));
            }
        }
        for (JsonNode para : n.path("paragraphs")) { // MuSiQue
            sink.accept(new Document(record + "-" + d++, firstText(para, "title"), firstText(para, "paragraph_text", "text")));
        }
    }

    private static String joinSentences(JsonNode sentences) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode s : sentences) {
            String t = s.asText().strip();
            if (!t.isEmpty()) {
                sb.append(sb.isEmpty() ? "" : " ").append(t);
            }
        }
        return sb.toString();
    }

    private static String firstText(JsonNode n, String... fields) {
        for (String f : fields) {
            JsonNode v = n.get(f);
            if (v != null && !v.isNull()) {
                return v.asText();
            }
        }
        return null;
    }

    private static JsonNode parse(Path file, int no, String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new CorpusFormatException(file, no, "not a JSON object: " + e.getMessage());
        }
    }

    private interface LineHandler {
        void accept(String line, int lineNumber);
    }

    private static void forEachLine(Path file, LongConsumer fileBytes, LineHandler handler) throws IOException {
        try (BufferedReader r = new BufferedReader(new StrictUtf8Reader(open(file, fileBytes)), 1 << 16)) {
            String line;
            int no = 0;
            while ((line = r.readLine()) != null) {
                no++;
                if (!line.isBlank()) {
                    handler.accept(line, no);
                }
            }
        } catch (StrictUtf8Reader.NotUtf8Exception e) {
            throw CorpusFormatException.notUtf8(file, e);
        }
    }

    /** The file's bytes, decompressed by its extension. */
    public static InputStream open(Path file) throws IOException {
        return open(file, null);
    }

    private static InputStream open(Path file, LongConsumer fileBytes) throws IOException {
        InputStream in;
        try {
            InputStream raw = Files.newInputStream(file);
            in = new BufferedInputStream(fileBytes == null ? raw : new CountingStream(raw, fileBytes), 1 << 16);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "corpus file not found: check the path");
        }
        String name = file.getFileName().toString();
        try {
            if (name.endsWith(".bz2")) {
                return new BZip2CompressorInputStream(in, true);
            }
            if (name.endsWith(".gz")) {
                return new GZIPInputStream(in, 1 << 16);
            }
        } catch (IOException e) {
            in.close();
            throw new IOException(file + " is not a valid " + name.substring(name.lastIndexOf('.')) + " file: "
                    + e.getMessage(), e);
        }
        return in;
    }

    /** Counts the bytes read through it, telling the count about every megabyte. */
    private static final class CountingStream extends FilterInputStream {
        private final LongConsumer sink;
        private long count;
        private long told;

        CountingStream(InputStream in, LongConsumer sink) {
            super(in);
            this.sink = sink;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            counted(b < 0 ? 0 : 1);
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            counted(Math.max(0, n));
            return n;
        }

        private void counted(int n) {
            count += n;
            if (count - told >= 1 << 20) {
                told = count;
                sink.accept(count);
            }
        }
    }

    /** A record that does not fit its format, or text that is not UTF-8: names the file and line. */
    public static final class CorpusFormatException extends UncheckedIOException {
        CorpusFormatException(Path file, int line, String what) {
            super(file + ":" + line + ": " + what + " (check --format)", new IOException(what));
        }

        private CorpusFormatException(String message, IOException cause) {
            super(message, cause);
        }

        /** Bytes that are not UTF-8: no {@code --format} reads them, the file needs converting. */
        static CorpusFormatException notUtf8(Path file, StrictUtf8Reader.NotUtf8Exception e) {
            return new CorpusFormatException(file + ":" + e.line() + ": " + e.getMessage(), e);
        }
    }
}
