package dev.veracity.eval.data;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Streams the records of a dataset file one at a time, whatever its container format:
 * <ul>
 *   <li>JSONL (one object a line; blank lines skipped), by a {@code .jsonl}/{@code .ndjson} name or by content;</li>
 *   <li>a JSON array of objects, read element by element with Jackson's streaming parser;</li>
 *   <li>a JSON object whose field (one of {@code wrapperFields}, e.g. TriviaQA's {@code Data}) is that array;</li>
 *   <li>TSV with a header line ({@code .tsv}/{@code .tab}), each row an object of strings; fields may be quoted
 *       CSV-style ({@code "a ""b"""}).</li>
 * </ul>
 * {@code .bz2} and {@code .gz} are decompressed on the fly. The stream holds the file open: close it. Text that is not
 * UTF-8 fails with its line ({@link Sources#reader}); a file without a record fails when the stream is first read.
 */
public final class Records {

    private Records() {
    }

    /** The records of a file; a top-level {@code data} field is taken as the wrapped array. */
    public static Stream<Record> open(Path file) {
        return open(file, Set.of("data"));
    }

    /** The records of a file; an object whose field in {@code wrapperFields} is an array is read as that array. */
    public static Stream<Record> open(Path file, Set<String> wrapperFields) {
        String fmt = Sources.formatName(file);
        if (fmt.endsWith(".tsv") || fmt.endsWith(".tab")) {
            return stream(new TsvIterator(file));
        }
        if (fmt.endsWith(".jsonl") || fmt.endsWith(".ndjson")) {
            return stream(new JsonlIterator(file));
        }
        int first = firstChar(file);
        if (first == -1) {
            throw new DatasetException(file, "", EMPTY);
        }
        if (first == '[' || first == '{') {
            ArrayIterator arr = ArrayIterator.tryOpen(file, wrapperFields);
            if (arr != null) {
                return stream(arr);
            }
            return stream(new JsonlIterator(file));
        }
        throw new DatasetException(file, "1", "not JSON, JSONL or TSV (starts with '" + (char) first + "')");
    }

    /** What an empty file is told: a run over no question would report a score of nothing. */
    private static final String EMPTY = "the file is empty: no records to read";

    private static Stream<Record> stream(CloseableIterator it) {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(it::close);
    }

    private static int firstChar(Path file) {
        try (BufferedReader r = Sources.reader(file)) {
            int c;
            while ((c = r.read()) != -1) {
                if (!Character.isWhitespace(c) && c != '\uFEFF') {
                    return c;
                }
            }
            return -1;
        } catch (IOException e) {
            throw Sources.readError(file, "", e);
        }
    }

    private abstract static class CloseableIterator implements Iterator<Record>, AutoCloseable {
        final Path file;
        private Record next;
        private boolean done;
        private long records;

        CloseableIterator(Path file) {
            this.file = file;
        }

        /** The next record, or null at the end. */
        abstract Record read() throws IOException;

        @Override
        public boolean hasNext() {
            if (next == null && !done) {
                try {
                    next = read();
                } catch (IOException e) {
                    throw Sources.readError(file, "", e);
                }
                if (next == null) {
                    done = true;
                    close();
                    if (records == 0) {
                        throw new DatasetException(file, "", noRecords());
                    }
                } else {
                    records++;
                }
            }
            return next != null;
        }

        /** Why a file that ended before its first record is refused. */
        String noRecords() {
            return EMPTY;
        }

        @Override
        public Record next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Record r = next;
            next = null;
            return r;
        }

        @Override
        public abstract void close();
    }

    private static final class JsonlIterator extends CloseableIterator {
        private final BufferedReader reader;
        private long line;

        JsonlIterator(Path file) {
            super(file);
            this.reader = Sources.reader(file);
        }

        @Override
        Record read() throws IOException {
            String text;
            while ((text = readLine()) != null) {
                line++;
                if (line == 1 && text.startsWith("\uFEFF")) {
                    text = text.substring(1);
                }
                if (text.isBlank()) {
                    continue;
                }
                String where = Long.toString(line);
                JsonNode node;
                try {
                    node = Json.MAPPER.readTree(text);
                } catch (JsonProcessingException e) {
                    throw new DatasetException(file, where, "invalid JSON: " + e.getOriginalMessage(), e);
                }
                if (!node.isObject()) {
                    throw new DatasetException(file, where, "expected a JSON object, found " + Fields.kind(node));
                }
                return new Record(file, where, line - 1, node);
            }
            return null;
        }

        private String readLine() throws IOException {
            try {
                return reader.readLine();
            } catch (IOException e) {
                throw Sources.readError(file, Long.toString(line + 1), e);
            }
        }

        @Override
        public void close() {
            Sources.closeQuietly(reader);
        }
    }

    private static final class ArrayIterator extends CloseableIterator {
        private final JsonParser parser;
        private long index;

        private ArrayIterator(Path file, JsonParser parser) {
            super(file);
            this.parser = parser;
        }

        /** Positions a parser inside the array, or returns null when the file is not an (wrapped) array. */
        static ArrayIterator tryOpen(Path file, Set<String> wrapperFields) {
            JsonParser p = null;
            try {
                p = Json.MAPPER.createParser(Sources.reader(file));
                JsonToken t = p.nextToken();
                if (t == JsonToken.START_ARRAY) {
                    return new ArrayIterator(file, p);
                }
                if (t == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String name = p.currentName();
                        JsonToken v = p.nextToken();
                        if (v == JsonToken.START_ARRAY && wrapperFields.contains(name)) {
                            return new ArrayIterator(file, p);
                        }
                        p.skipChildren();
                    }
                }
                // One plain object first: JSONL, read line by line, unless it is the whole (multi-line) file.
                int endLine = p.currentLocation().getLineNr();
                if (t == JsonToken.START_OBJECT && endLine > 1 && p.nextToken() == null) {
                    throw new DatasetException(file, "", "one JSON object with no array of records in it (looked"
                            + " for a field " + wrapperFields.stream().sorted().toList() + "); expected JSONL, a JSON"
                            + " array, or an object with such a field");
                }
                Sources.closeQuietly(p);
                return null;
            } catch (DatasetException e) {
                Sources.closeQuietly(p);
                throw e;
            } catch (JsonProcessingException e) {
                // Broken JSON in the first object: the JSONL reader reports it with its line.
                Sources.closeQuietly(p);
                return null;
            } catch (IOException e) {
                Sources.closeQuietly(p);
                throw Sources.readError(file, "", e);
            }
        }

        @Override
        Record read() throws IOException {
            String where = "element " + index;
            JsonToken t;
            try {
                t = parser.nextToken();
                if (t == null) {
                    throw new DatasetException(file, where, "invalid JSON: unexpected end of file inside the array");
                }
                if (t == JsonToken.END_ARRAY) {
                    return null;
                }
                where = where + " (line " + parser.currentTokenLocation().getLineNr() + ")";
                if (t != JsonToken.START_OBJECT) {
                    throw new DatasetException(file, where, "expected a JSON object, found " + describe(t));
                }
                JsonNode node = Json.MAPPER.readTree(parser);
                return new Record(file, where, index++, node);
            } catch (JsonProcessingException e) {
                throw new DatasetException(file, where, "invalid JSON: " + e.getOriginalMessage(), e);
            }
        }

        @Override
        String noRecords() {
            return "no records: the array of records is empty";
        }

        private static String describe(JsonToken t) {
            return switch (t) {
                case START_ARRAY -> "an array";
                case VALUE_STRING -> "a string";
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
                case VALUE_TRUE, VALUE_FALSE -> "a boolean";
                case VALUE_NULL -> "null";
                default -> String.valueOf(t.asString());
            };
        }

        @Override
        public void close() {
            Sources.closeQuietly(parser);
        }
    }

    private static final class TsvIterator extends CloseableIterator {
        private final BufferedReader reader;
        private final List<String> header;
        private long line;
        private long row;

        TsvIterator(Path file) {
            super(file);
            this.reader = Sources.reader(file);
            try {
                String h = reader.readLine();
                line = 1;
                if (h == null) {
                    header = List.of();
                } else {
                    if (h.startsWith("\uFEFF")) {
                        h = h.substring(1);
                    }
                    header = split(h, "1");
                }
            } catch (IOException e) {
                Sources.closeQuietly(reader);
                throw Sources.readError(file, "1", e);
            } catch (RuntimeException e) {
                Sources.closeQuietly(reader);
                throw e;
            }
        }

        @Override
        Record read() throws IOException {
            String text;
            while ((text = reader.readLine()) != null) {
                line++;
                if (text.isBlank()) {
                    continue;
                }
                String where = Long.toString(line);
                List<String> cells = split(text, where);
                if (cells.size() != header.size()) {
                    throw new DatasetException(file, where, "expected " + header.size()
                            + " tab-separated fields (as in the header), found " + cells.size());
                }
                ObjectNode node = Json.MAPPER.createObjectNode();
                for (int i = 0; i < cells.size(); i++) {
                    node.put(header.get(i), cells.get(i));
                }
                return new Record(file, where, row++, node);
            }
            return null;
        }

        @Override
        String noRecords() {
            return header.isEmpty() ? EMPTY : "no records: the file holds only its header line";
        }

        private List<String> split(String text, String where) {
            List<String> out = new ArrayList<>();
            int i = 0;
            int n = text.length();
            while (true) {
                if (i < n && text.charAt(i) == '"') {
                    StringBuilder b = new StringBuilder();
                    i++;
                    while (true) {
                        if (i >= n) {
                            throw new DatasetException(file, where, "unterminated quoted field " + (out.size() + 1));
                        }
                        char c = text.charAt(i++);
                        if (c == '"') {
                            if (i < n && text.charAt(i) == '"') {
                                b.append('"');
                                i++;
                            } else {
                                break;
                            }
                        } else {
                            b.append(c);
                        }
                    }
                    out.add(b.toString());
                    if (i < n && text.charAt(i) != '\t') {
                        throw new DatasetException(file, where, "text after the closing quote of field "
                                + out.size());
                    }
                } else {
                    int tab = text.indexOf('\t', i);
                    int end = tab < 0 ? n : tab;
                    out.add(text.substring(i, end));
                    i = end;
                }
                if (i >= n) {
                    return out;
                }
                i++; // the tab
            }
        }

        @Override
        public void close() {
            Sources.closeQuietly(reader);
        }
    }

}
