package dev.veracity.methods.c3po;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The authors' released few-shot examples (resources {@code examples/*.txt}, verbatim from Chen-GX/C-3PO
 * {@code prompt/few_shots}, each file's {@code #!} header says which) and their draw, as their
 * {@code utils.few_shot_random_select} makes it: some examples of each named list, picked at random without
 * repetition, all shuffled, each written {@code ###\nExample i\n} + text, joined by blank lines. The prompt puts the
 * block after {@code Here are some examples:\n}, between its instructions and {@code Now, process the following
 * question:} ({@link C3poPrompts}).
 *
 * <p>Pools are per dataset; a dataset uses its own pool, else the authors' {@code public} one (their
 * {@code USE_PUBLIC}: NaturalQuestions and TriviaQA for the roadmap and the Decision Maker, every dataset for the
 * answer), else, outside the authors' six datasets where they have no public pool (router, filter), all six pools
 * together.
 */
public final class FewShotExamples {

    /** One resource file: the examples of one prompt. */
    public enum Pool {
        /** The LLM's roadmap (their {@code few_shots/planning}); one list per dataset, key {@code -}. */
        ROADMAP("roadmap.txt"),
        /** The LLM's answer with documents ({@code few_shots/answer/public.py}). */
        ANSWER("answer.txt"),
        /** The Reasoning Router ({@code few_shots/decision}). */
        ROUTER("router.txt"),
        /** The Decision Maker ({@code few_shots/decide_next_step}). */
        DECISION("decision.txt"),
        /** The Information Filter ({@code few_shots/filter}). */
        FILTER("filter.txt");

        private final String file;

        Pool(String file) {
            this.file = file;
        }
    }

    /** The key of a pool that is one plain list. */
    public static final String LIST = "-";

    private static final String OPEN = "#= ";
    private static final String PUBLIC = "public";
    private static final Map<Pool, Map<String, Map<String, List<String>>>> LOADED = new ConcurrentHashMap<>();

    private FewShotExamples() {
    }

    /**
     * The authors' name of one of their six datasets ({@code 2WikiMultiHopQA}, {@code hotpotqa}, {@code Musique},
     * {@code NaturalQuestions}, {@code PopQA}, {@code TriviaQA}) for our dataset name, or null for any other.
     */
    public static String authorsDataset(String dataset) {
        if (dataset == null) {
            return null;
        }
        return switch (dataset) {
            case "hotpotqa" -> "hotpotqa";
            case "2wikimultihopqa" -> "2WikiMultiHopQA";
            case "musique", "musique-answerable" -> "Musique";
            case "nq-open" -> "NaturalQuestions";
            case "triviaqa" -> "TriviaQA";
            case "popqa" -> "PopQA";
            default -> null;
        };
    }

    /** The examples of {@code key} that questions of {@code dataset} draw from (see the class comment), in file order. */
    public static List<String> examples(Pool pool, String dataset, String key) {
        Map<String, Map<String, List<String>>> pools = pools(pool);
        String own = authorsDataset(dataset);
        if (own != null && pools.containsKey(own)) {
            return pools.get(own).getOrDefault(key, List.of());
        }
        if (pools.containsKey(PUBLIC)) {
            return pools.get(PUBLIC).getOrDefault(key, List.of());
        }
        List<String> all = new ArrayList<>();
        pools.values().forEach(p -> all.addAll(p.getOrDefault(key, List.of())));
        return all;
    }

    /**
     * The rendered examples: {@code perKey} of each key's list (all of a shorter list) drawn without repetition, all
     * shuffled, numbered from 1; "" when the lists are empty.
     *
     * @param seed the draw's seed: the same seed gives the same block
     */
    public static String draw(Pool pool, String dataset, List<String> keys, int perKey, long seed) {
        Random random = new Random(seed);
        List<String> picked = new ArrayList<>();
        for (String key : keys) {
            List<String> list = new ArrayList<>(examples(pool, dataset, key));
            Collections.shuffle(list, random);
            picked.addAll(list.subList(0, Math.min(perKey, list.size())));
        }
        Collections.shuffle(picked, random);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < picked.size(); i++) {
            if (i > 0) {
                out.append("\n\n");
            }
            out.append("###\nExample ").append(i + 1).append('\n').append(picked.get(i));
        }
        return out.toString();
    }

    /** The pool file: dataset (the authors' file name) -> key -> examples, read once. */
    static Map<String, Map<String, List<String>>> pools(Pool pool) {
        return LOADED.computeIfAbsent(pool, FewShotExamples::read);
    }

    /** Parses a pool file: {@code #!} header lines, then examples each opened by a {@code #= POOL KEY} line. */
    private static Map<String, Map<String, List<String>>> read(Pool pool) {
        String text;
        try (InputStream in = FewShotExamples.class.getResourceAsStream("examples/" + pool.file)) {
            if (in == null) {
                throw new IllegalStateException("few-shot examples examples/" + pool.file + " are missing next to "
                        + FewShotExamples.class.getName());
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read few-shot examples " + pool.file, e);
        }
        while (text.startsWith("#!")) {
            int nl = text.indexOf('\n');
            text = nl < 0 ? "" : text.substring(nl + 1);
        }
        Map<String, Map<String, List<String>>> out = new LinkedHashMap<>();
        int at = 0;
        while (at < text.length()) {
            if (!text.startsWith(OPEN, at)) {
                throw new IllegalStateException(pool.file + ": text before the first '" + OPEN + "POOL KEY' line");
            }
            int lineEnd = text.indexOf('\n', at);
            if (lineEnd < 0) {
                throw new IllegalStateException(pool.file + ": an example line without its text");
            }
            String[] head = text.substring(at + OPEN.length(), lineEnd).split(" ", -1);
            if (head.length != 2 || head[0].isEmpty() || head[1].isEmpty()) {
                throw new IllegalStateException(pool.file + ": '" + text.substring(at, lineEnd) + "' is not '#= POOL KEY'");
            }
            int next = text.indexOf("\n" + OPEN, lineEnd);
            int end = next < 0 ? (text.endsWith("\n") ? text.length() - 1 : text.length()) : next;
            String example = end > lineEnd ? text.substring(lineEnd + 1, end) : "";
            out.computeIfAbsent(head[0], k -> new LinkedHashMap<>()).computeIfAbsent(head[1], k -> new ArrayList<>())
                    .add(example);
            at = next < 0 ? text.length() : next + 1;
        }
        out.replaceAll((name, keys) -> {
            keys.replaceAll((k, list) -> List.copyOf(list));
            return Collections.unmodifiableMap(keys);
        });
        return Collections.unmodifiableMap(out);
    }
}
