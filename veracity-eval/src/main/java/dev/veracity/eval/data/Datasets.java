package dev.veracity.eval.data;

import dev.veracity.qa.QaItem;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The registry of datasets: every name and alias, its loader, its official metrics, whether answers are sets and
 * whether records carry their own documents ({@link DatasetSpec}). {@link dev.veracity.eval.run.DatasetProfile}
 * reads the metrics from here, so an alias is scored as its dataset.
 *
 * <pre>{@code
 * try (Stream<QaItem> items = Datasets.stream("crag", Path.of("dev_data.jsonl.bz2"))) { ... }
 * List<QaItem> all = Datasets.byName("ramdocs").load(Path.of("RAMDocs_test.jsonl"));
 * }</pre>
 *
 * Names are case-insensitive, {@code _} and {@code -} the same. Each loader's class comment lists the fields it
 * reads.
 */
public final class Datasets {

    private static final List<String> EM_F1 = List.of("em", "f1");
    private static final Map<String, DatasetSpec> SPECS = new LinkedHashMap<>();
    private static final Map<String, String> NAMES = new LinkedHashMap<>();

    static {
        add(new DatasetSpec("ramdocs", List.of(), List.of("strict-multi"), true, true,
                "RAMDocs JSONL (MADAM-RAG)", RamDocsLoader::new));
        add(new DatasetSpec("faitheval", List.of(), List.of("strict-multi"), true, true,
                "FaithEval JSON/JSONL", FaithEvalLoader::new));
        add(new DatasetSpec("ambigdocs", List.of(), List.of("strict-multi"), true, true,
                "AmbigDocs JSON", AmbigDocsLoader::new));
        add(new DatasetSpec("hotpotqa", List.of("hotpot"), EM_F1, false, true,
                "HotpotQA dev (official or simplified)", () -> new HotpotLoader("hotpotqa")));
        add(new DatasetSpec("2wikimultihopqa", List.of("2wiki"), EM_F1, false, true,
                "2WikiMultihopQA dev JSON", () -> new HotpotLoader("2wikimultihopqa")));
        add(new DatasetSpec("musique", List.of(), List.of("musique-em", "musique-f1"), false, true,
                "MuSiQue JSONL, every record", () -> new MusiqueLoader("musique", false)));
        add(new DatasetSpec("musique-answerable", List.of("musique-ans"), List.of("musique-em", "musique-f1"), false,
                true, "MuSiQue JSONL, answerable records only", () -> new MusiqueLoader("musique-answerable", true)));
        add(new DatasetSpec("nq-open", List.of("nq", "nqopen"), List.of("nq-em", "substring"), false, false,
                "NQ-open JSONL (closed book or with an index)", NqOpenLoader::new));
        add(new DatasetSpec("triviaqa", List.of("trivia"), List.of("triviaqa-em", "triviaqa-f1"), false, true,
                "TriviaQA JSON (Data wrapper)", TriviaQaLoader::new));
        add(new DatasetSpec("popqa", List.of(), List.of("substring"), false, false,
                "PopQA TSV/JSON", PopQaLoader::new));
        add(new DatasetSpec("crag", List.of(), List.of("truthfulness-answer", "em"), false, true,
                "CRAG JSONL, web pages as text", () -> new CragLoader("crag", true)));
        add(new DatasetSpec("crag-snippets", List.of(), List.of("truthfulness-answer", "em"), false, true,
                "CRAG JSONL, page snippets only", () -> new CragLoader("crag-snippets", false)));
        add(new DatasetSpec("fever", List.of(), List.of("fever-acc"), false, false,
                "FEVER JSONL", FeverLoader::new));
        add(new DatasetSpec("ragtruth", List.of(), EM_F1, false, true,
                "RAGTruth JSONL", RagTruthLoader::new));
        add(new DatasetSpec("flashrag", List.of("jsonl"), EM_F1, false, false,
                "FlashRAG dataset JSONL (id, question, golden_answers, metadata; optional documents)",
                FlashRagLoader::new));
    }

    private static void add(DatasetSpec spec) {
        SPECS.put(spec.name(), spec);
        NAMES.put(spec.name(), spec.name());
        for (String a : spec.aliases()) {
            if (NAMES.put(key(a), spec.name()) != null) {
                throw new IllegalStateException("dataset name " + a + " registered twice");
            }
        }
    }

    private static String key(String name) {
        return name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private Datasets() {
    }

    /** The declaration of a dataset by name or alias; IllegalArgumentException listing the names when unknown. */
    public static DatasetSpec spec(String name) {
        String canonical = NAMES.get(key(name));
        if (canonical == null) {
            throw new IllegalArgumentException("unknown dataset \"" + name + "\"; known: " + String.join(", ", names())
                    + " (aliases: " + aliases() + ")");
        }
        return SPECS.get(canonical);
    }

    /** Every dataset's declaration, in a fixed order. */
    public static List<DatasetSpec> specs() {
        return List.copyOf(SPECS.values());
    }

    /** The loader for a dataset name or alias; IllegalArgumentException listing the names when unknown. */
    public static DatasetLoader byName(String name) {
        return spec(name).loader().get();
    }

    /** The canonical names, in a fixed order. */
    public static List<String> names() {
        return List.copyOf(SPECS.keySet());
    }

    /** Every alias with its dataset, e.g. {@code nq=nq-open}. */
    private static String aliases() {
        return NAMES.entrySet().stream().filter(e -> !e.getKey().equals(e.getValue()))
                .map(e -> e.getKey() + "=" + e.getValue()).collect(java.util.stream.Collectors.joining(", "));
    }
    /** The items of a file read by the named dataset's loader (close the stream). */
    public static Stream<QaItem> stream(String name, Path file) {
        return byName(name).stream(file);
    }

    /** All items of a file read by the named dataset's loader. */
    public static List<QaItem> load(String name, Path file) {
        return byName(name).load(file);
    }
}
