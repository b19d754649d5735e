package dev.veracity.retrieval.react;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.retrieval.PageSource.Page;
import dev.veracity.retrieval.corpus.CorpusReader;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.text.StrictUtf8Reader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Reads Wikipedia dumps as {@link Page}s, one pass, constant memory; {@code .bz2} / {@code .gz} are decompressed by
 * name, and a folder is read file by file in path order. A record that does not fit its format, or text that is not
 * UTF-8 ({@link StrictUtf8Reader}), fails with its file and line ({@link PageFormatException}).
 */
public final class PageReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PageReader() {
    }

    /** Hands every page of {@code source} (a file, or a folder of files) to {@code sink}, in order. */
    public static void read(Path source, PageFormat format, Consumer<Page> sink) throws IOException {
        if (format == PageFormat.DATASET) {
            throw new IllegalArgumentException("--format dataset is read by the dataset's loader: give --dataset NAME");
        }
        if (Files.isDirectory(source)) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(source)) {
                files = s.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                readFile(f, format, sink);
            }
        } else {
            readFile(source, format, sink);
        }
    }

    private static void readFile(Path file, PageFormat format, Consumer<Page> sink) throws IOException {
        try (BufferedReader r = new BufferedReader(new StrictUtf8Reader(CorpusReader.open(file)), 1 << 16)) {
            int no = 0;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                no++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n;
                try {
                    n = JSON.readTree(line);
                } catch (IOException e) {
                    throw new PageFormatException(file, no, "not a JSON object: " + firstLine(e.getMessage()));
                }
                if (!n.isObject()) {
                    throw new PageFormatException(file, no, "not a JSON object");
                }
                Page p = switch (format) {
                    case HOTPOTQA_ABSTRACTS -> hotpotAbstract(n, file, no);
                    case KILT -> kilt(n, file, no);
                    case FEVER -> fever(n, file, no);
                    case JSONL -> jsonl(n, file, no);
                    case DATASET -> throw new IllegalStateException("unreachable");
                };
                if (p != null) {
                    sink.accept(p);
                }
            }
        } catch (StrictUtf8Reader.NotUtf8Exception e) {
            throw PageFormatException.notUtf8(file, e);
        } catch (UncheckedIOException e) {
            if (e instanceof PageFormatException) {
                throw e;
            }
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    static Page hotpotAbstract(JsonNode n, Path file, int no) {
        String title = text(n, "title", file, no);
        JsonNode text = n.get("text");
        if (text == null || !text.isArray()) {
            throw new PageFormatException(file, no, "field \"text\" must be a list of sentences");
        }
        List<String> sentences = new ArrayList<>();
        for (JsonNode s : text) {
            String t = s.asText("").strip();
            if (!t.isEmpty()) {
                sentences.add(t);
            }
        }
        return sentences.isEmpty() ? null : new Page(title, List.of(String.join(" ", sentences)), sentences);
    }

    static Page kilt(JsonNode n, Path file, int no) {
        String title = text(n, "wikipedia_title", file, no);
        JsonNode text = n.get("text");
        if (text == null || !text.isArray()) {
            throw new PageFormatException(file, no, "field \"text\" must be a list of paragraphs");
        }
        List<String> paragraphs = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            String p = text.get(i).asText("").strip();
            if (i == 0 && p.equals(title.strip())) {
                continue; // KILT repeats the title as the first paragraph
            }
            if (p.startsWith("Section::::")) {
                continue;
            }
            p = p.replace("BULLET::::- ", "").replace("BULLET::::", "").strip();
            if (!p.isEmpty()) {
                paragraphs.add(p);
            }
        }
        return paragraphs.isEmpty() ? null : PageStore.page(title, paragraphs);
    }

    static Page fever(JsonNode n, Path file, int no) {
        String id = text(n, "id", file, no);
        if (id.isBlank()) {
            return null; // wiki-001.jsonl opens with an empty page
        }
        JsonNode lines = n.get("lines");
        if (lines == null || !lines.isTextual()) {
            throw new PageFormatException(file, no, "field \"lines\" must be a string of \"index\\tsentence...\" lines");
        }
        List<String> sentences = new ArrayList<>();
        for (String l : lines.asText().split("\n")) {
            int tab = l.indexOf('\t');
            if (tab < 0) {
                continue;
            }
            int end = l.indexOf('\t', tab + 1);
            String s = unescapeFever(l.substring(tab + 1, end < 0 ? l.length() : end)).strip();
            if (!s.isEmpty()) {
                sentences.add(s);
            }
        }
        if (sentences.isEmpty()) {
            return null;
        }
        return new Page(unescapeFever(id.replace('_', ' ')), List.of(String.join(" ", sentences)), sentences);
    }

    static Page jsonl(JsonNode n, Path file, int no) {
        String title = text(n, "title", file, no);
        JsonNode sentences = n.get("sentences");
        if (sentences != null && sentences.isArray()) {
            List<String> s = new ArrayList<>();
            sentences.forEach(x -> {
                String t = x.asText("").strip();
                if (!t.isEmpty()) {
                    s.add(t);
                }
            });
            return s.isEmpty() ? null : new Page(title, List.of(String.join(" ", s)), s);
        }
        JsonNode text = n.get("text");
        List<String> paragraphs = new ArrayList<>();
        if (text != null && text.isArray()) {
            text.forEach(x -> paragraphs.add(x.asText("")));
        } else if (text != null && text.isTextual()) {
            paragraphs.addAll(List.of(text.asText().split("\n")));
        } else {
            throw new PageFormatException(file, no, "no \"text\" (a string or a list of paragraphs) or \"sentences\" field");
        }
        List<String> kept = paragraphs.stream().map(String::strip).filter(p -> !p.isEmpty()).toList();
        return kept.isEmpty() ? null : PageStore.page(title, kept);
    }

    /** FEVER's Penn Treebank escapes back to characters. */
    static String unescapeFever(String s) {
        return s.replace("-LRB-", "(").replace("-RRB-", ")").replace("-LSB-", "[").replace("-RSB-", "]")
                .replace("-LCB-", "{").replace("-RCB-", "}").replace("-COLON-", ":");
    }

    /**
     * A dataset's paragraphs as pages: paragraphs that share a (normalised) title become one page, in first-seen
     * order; a paragraph seen before under the same title is kept once.
     */
    public static List<Page> group(Iterable<Document> paragraphs) {
        Map<String, String> titleOf = new LinkedHashMap<>();
        Map<String, List<String>> texts = new LinkedHashMap<>();
        for (Document d : paragraphs) {
            String key = PageStore.normalise(d.title());
            String t = d.text().strip();
            if (key.isEmpty() || t.isEmpty()) {
                continue;
            }
            titleOf.putIfAbsent(key, d.title().strip());
            List<String> list = texts.computeIfAbsent(key, k -> new ArrayList<>());
            if (!list.contains(t)) {
                list.add(t);
            }
        }
        List<Page> out = new ArrayList<>(texts.size());
        texts.forEach((k, paras) -> out.add(PageStore.page(titleOf.get(k), paras)));
        return out;
    }

    private static String text(JsonNode n, String field, Path file, int no) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new PageFormatException(file, no, "no \"" + field + "\" string field");
        }
        return v.asText();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** A record that does not fit its format, or text that is not UTF-8: names the file and line. */
    public static final class PageFormatException extends UncheckedIOException {
        PageFormatException(Path file, int line, String what) {
            super(file + ":" + line + ": " + what + " (check --format)", new IOException(what));
        }

        private PageFormatException(String message, IOException cause) {
            super(message, cause);
        }

        /** Bytes that are not UTF-8: no {@code --format} reads them, the file needs converting. */
        static PageFormatException notUtf8(Path file, StrictUtf8Reader.NotUtf8Exception e) {
            return new PageFormatException(file + ":" + e.line() + ": " + e.getMessage(), e);
        }
    }
}
