package dev.veracity.methods;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs the original authors' parsing (re-implemented here with the same semantics as their Python) over the
 * parser corpora and checks that the cases where it disagrees with our expected parse are exactly the ones
 * listed in docs/parsers.md. Also checks that the corpora are well formed.
 */
class AuthorsParsersTest {

    private static final String CHECKER = "/dev/veracity/methods/march/checker-corpus.jsonl";
    private static final String AGGREGATOR = "/dev/veracity/methods/madam/aggregator-corpus.jsonl";
    private static final String AGENT = "/dev/veracity/methods/madam/agent-corpus.jsonl";

    private static final ObjectMapper JSON = new ObjectMapper();

    // ---------------------------------------------------------------- authors' parsers

    /** MARCH {@code _extract_detailed_info}, with the {@code idx + 1} prefix for the first batch item. */
    private static final Pattern MARCH_CHECKER = Pattern.compile(
            "(\\d+)\\.\\s*Evidence:\\s*(.*?)\\s*\\[Answer:\\s*(.*?)\\]",
            Pattern.DOTALL | Pattern.UNICODE_CHARACTER_CLASS);

    static Map<String, String> authorsChecker(String output, int questions) {
        String text = output;
        if (!pyStrip(text).startsWith("1.")) {
            text = "1." + pyStrip(text);
        }
        Map<BigInteger, String> byNumber = new TreeMap<>();
        Matcher m = MARCH_CHECKER.matcher(text);
        while (m.find()) {
            byNumber.put(new BigInteger(m.group(1)), pyStrip(m.group(3))); // dict: the last match wins
        }
        Map<String, String> result = new TreeMap<>();
        byNumber.forEach((n, answer) -> {
            if (n.signum() > 0 && n.compareTo(BigInteger.valueOf(questions)) <= 0) {
                result.put(n.toString(), answer); // only question numbers 1..m are ever looked up
            }
        });
        return result;
    }

    /** RAMDocs {@code run_madam_rag.py}: slice between find("Answer: ") and find("Explanation"). */
    static String authorsAgent(String output) {
        String r = pyStrip(output); // call_llm strips the generated text
        int start = r.indexOf("Answer: ") + "Answer: ".length();
        int end = r.indexOf("Explanation");
        return pyStrip(pySlice(r, start, end));
    }

    /** Naive first match; the authors never parse the aggregator output. No DOTALL: '.' stops at '\n' only. */
    private static final Pattern NAIVE_AGGREGATOR = Pattern.compile(
            "All Correct Answers:\\s*\\[(.*?)\\]", Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS);

    /** Returns null when the naive regex finds no marker. */
    static List<String> naiveAggregator(String output) {
        Matcher m = NAIVE_AGGREGATOR.matcher(output);
        if (!m.find()) {
            return null;
        }
        List<String> items = new ArrayList<>();
        for (String raw : m.group(1).split(",", -1)) {
            String item = stripChars(pyStrip(raw), "\"'");
            if (!item.isEmpty()) {
                items.add(item);
            }
        }
        return items;
    }

    // ---------------------------------------------------------------- Python string helpers

    static String pyStrip(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && isPySpace(s.charAt(a))) {
            a++;
        }
        while (b > a && isPySpace(s.charAt(b - 1))) {
            b--;
        }
        return s.substring(a, b);
    }

    private static boolean isPySpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || (c >= 0x1c && c <= 0x1f) || c == 0x85;
    }

    private static String stripChars(String s, String chars) {
        int a = 0;
        int b = s.length();
        while (a < b && chars.indexOf(s.charAt(a)) >= 0) {
            a++;
        }
        while (b > a && chars.indexOf(s.charAt(b - 1)) >= 0) {
            b--;
        }
        return s.substring(a, b);
    }

    /** Python {@code s[a:b]}: negative indices count from the end, out-of-range indices clamp. */
    static String pySlice(String s, int a, int b) {
        int n = s.length();
        a = a < 0 ? Math.max(0, a + n) : Math.min(a, n);
        b = b < 0 ? Math.max(0, b + n) : Math.min(b, n);
        return a >= b ? "" : s.substring(a, b);
    }

    // ---------------------------------------------------------------- disagreement tests

    @Test
    void authorsCheckerDisagreementsAreExactlyThoseDocumented() throws IOException {
        Map<String, String> differences = new LinkedHashMap<>();
        for (JsonNode c : load(CHECKER)) {
            Map<String, String> expected = new TreeMap<>();
            c.get("expected").fields().forEachRemaining(e -> expected.put(e.getKey(), e.getValue().asText()));
            Map<String, String> theirs = authorsChecker(c.get("output").asText(), c.get("questions").asInt());
            if (!theirs.equals(expected)) {
                differences.put(c.get("id").asText(), "theirs " + theirs + " ours " + expected);
            }
        }
        assertMatchesDoc("checker", 'c', differences);
    }

    @Test
    void authorsAgentDisagreementsAreExactlyThoseDocumented() throws IOException {
        Map<String, String> differences = new LinkedHashMap<>();
        for (JsonNode c : load(AGENT)) {
            String expected = c.get("expected").asText();
            String theirs = authorsAgent(c.get("output").asText());
            if (!theirs.equals(expected)) {
                differences.put(c.get("id").asText(), "theirs '" + theirs + "' ours '" + expected + "'");
            }
        }
        assertMatchesDoc("agent", 'g', differences);
    }

    @Test
    void naiveAggregatorDisagreementsAreExactlyThoseDocumented() throws IOException {
        Map<String, String> differences = new LinkedHashMap<>();
        for (JsonNode c : load(AGGREGATOR)) {
            List<String> expected = new ArrayList<>();
            c.get("expected").forEach(x -> expected.add(x.asText()));
            boolean parsed = c.get("parsed").asBoolean();
            List<String> theirs = naiveAggregator(c.get("output").asText());
            boolean agree = theirs == null ? !parsed : parsed && theirs.equals(expected);
            if (!agree) {
                differences.put(c.get("id").asText(), "naive " + (theirs == null ? "no match" : theirs)
                        + " ours " + (parsed ? expected : "not parsed"));
            }
        }
        assertMatchesDoc("aggregator", 'a', differences);
    }

    private static void assertMatchesDoc(String corpus, char prefix, Map<String, String> differences)
            throws IOException {
        Set<String> documented = documentedIds(prefix);
        Set<String> undocumented = new TreeSet<>(differences.keySet());
        undocumented.removeAll(documented);
        Set<String> stale = new TreeSet<>(documented);
        stale.removeAll(differences.keySet());
        StringBuilder detail = new StringBuilder();
        undocumented.forEach(id -> detail.append("\n  ").append(id).append(": ").append(differences.get(id)));
        assertThat(undocumented)
                .as("%s corpus: the authors' parse differs from ours for ids not listed in docs/parsers.md:%s",
                        corpus, detail)
                .isEmpty();
        assertThat(stale)
                .as("%s corpus: docs/parsers.md lists ids where the authors' parse does NOT differ", corpus)
                .isEmpty();
    }

    private static final Pattern DOC_ROW = Pattern.compile("^\\|\\s*([a-z]\\d+)\\s*\\|");

    private static Set<String> documentedIds(char prefix) throws IOException {
        Set<String> ids = new TreeSet<>();
        for (String line : Files.readAllLines(findDoc(), StandardCharsets.UTF_8)) {
            Matcher m = DOC_ROW.matcher(line);
            if (m.find() && m.group(1).charAt(0) == prefix) {
                assertThat(ids.add(m.group(1))).as("docs/parsers.md lists %s twice", m.group(1)).isTrue();
            }
        }
        return ids;
    }

    private static Path findDoc() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path doc = dir.resolve("docs").resolve("parsers.md");
            if (Files.isRegularFile(doc)) {
                return doc;
            }
        }
        throw new AssertionError("docs/parsers.md not found above " + Path.of("").toAbsolutePath());
    }

    // ---------------------------------------------------------------- corpus sanity

    @Test
    void checkerCorpusIsWellFormed() throws IOException {
        List<JsonNode> cases = load(CHECKER);
        checkIdsAndCount(cases, "c", 45);
        for (JsonNode c : cases) {
            String id = c.path("id").asText();
            assertThat(c.path("questions").isInt() && c.get("questions").asInt() >= 1)
                    .as("%s: questions", id).isTrue();
            assertThat(c.path("output").isTextual()).as("%s: output", id).isTrue();
            assertThat(c.path("note").isTextual()).as("%s: note", id).isTrue();
            JsonNode expected = c.path("expected");
            assertThat(expected.isObject()).as("%s: expected is an object", id).isTrue();
            int m = c.get("questions").asInt();
            expected.fields().forEachRemaining(e -> {
                assertThat(e.getKey()).as("%s: expected key", id).matches("[1-9]\\d*");
                assertThat(Integer.parseInt(e.getKey())).as("%s: expected key in 1..m", id).isBetween(1, m);
                assertThat(e.getValue().isTextual()).as("%s: expected value", id).isTrue();
            });
            if (c.has("positional")) {
                assertThat(c.get("positional").isBoolean()).as("%s: positional", id).isTrue();
            }
        }
    }

    @Test
    void aggregatorCorpusIsWellFormed() throws IOException {
        List<JsonNode> cases = load(AGGREGATOR);
        checkIdsAndCount(cases, "a", 45);
        for (JsonNode c : cases) {
            String id = c.path("id").asText();
            assertThat(c.path("question").isTextual()).as("%s: question", id).isTrue();
            assertThat(c.path("documents").isArray()).as("%s: documents", id).isTrue();
            c.get("documents").forEach(d -> assertThat(d.isTextual()).as("%s: document", id).isTrue());
            assertThat(c.path("output").isTextual()).as("%s: output", id).isTrue();
            assertThat(c.path("expected").isArray()).as("%s: expected", id).isTrue();
            c.get("expected").forEach(x -> assertThat(x.isTextual()).as("%s: expected item", id).isTrue());
            assertThat(c.path("parsed").isBoolean()).as("%s: parsed", id).isTrue();
            assertThat(c.path("note").isTextual()).as("%s: note", id).isTrue();
        }
    }

    @Test
    void agentCorpusIsWellFormed() throws IOException {
        List<JsonNode> cases = load(AGENT);
        checkIdsAndCount(cases, "g", 25);
        for (JsonNode c : cases) {
            String id = c.path("id").asText();
            assertThat(c.path("question").isTextual()).as("%s: question", id).isTrue();
            assertThat(c.path("output").isTextual()).as("%s: output", id).isTrue();
            assertThat(c.path("expected").isTextual()).as("%s: expected", id).isTrue();
            assertThat(c.path("parsed").isBoolean()).as("%s: parsed", id).isTrue();
            assertThat(c.path("note").isTextual()).as("%s: note", id).isTrue();
            if (!c.get("parsed").asBoolean()) {
                assertThat(c.get("expected").asText()).as("%s: unparsed means empty expected", id).isEmpty();
            }
        }
    }

    private static void checkIdsAndCount(List<JsonNode> cases, String prefix, int minimum) {
        Set<String> seen = new HashSet<>();
        for (JsonNode c : cases) {
            assertThat(c.path("id").isTextual()).as("every case has a textual id: %s", c).isTrue();
            String id = c.get("id").asText();
            assertThat(id).as("id prefix").matches(prefix + "\\d+");
            assertThat(seen.add(id)).as("duplicate id %s", id).isTrue();
        }
        assertThat(cases.size()).as("number of %s cases", prefix).isGreaterThanOrEqualTo(minimum);
    }

    private static List<JsonNode> load(String resource) throws IOException {
        List<JsonNode> cases = new ArrayList<>();
        try (InputStream in = AuthorsParsersTest.class.getResourceAsStream(resource)) {
            assertThat(in).as("resource %s", resource).isNotNull();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    JsonNode node = JSON.readTree(line);
                    assertThat(node.isObject()).as("%s line %d is a JSON object", resource, number).isTrue();
                    cases.add(node);
                } catch (IOException e) {
                    throw new AssertionError(resource + " line " + number + " is not valid JSON: " + e.getMessage(), e);
                }
            }
        }
        return cases;
    }
}
