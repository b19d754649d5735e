package dev.veracity.eval.data;

import dev.veracity.plugin.Plugins;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmarks the five papers evaluate on, with their official files, question counts and fields, contributed as
 * any plug-in contributes datasets ({@code META-INF/services/dev.veracity.eval.data.DatasetProvider}), listed first.
 */
public final class BuiltInDatasets implements DatasetProvider, Plugins.Ordered {

    private static final List<String> EM_F1 = List.of("em", "f1");
    private final Map<String, DatasetSpec> specs = new LinkedHashMap<>();

    public BuiltInDatasets() {
        declare();
        questionCounts();
        recordFields();
    }

    /** The datasets, their loaders and metrics, then the official files. */
    private void declare() {
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
                "CRAG JSONL, web pages as text", () -> new CragLoader("crag", true))
                .withReferences("CRAG's search_results: each whole web page (page_result as text; its snippet when empty)"));
        add(new DatasetSpec("crag-snippets", List.of(), List.of("truthfulness-answer", "em"), false, true,
                "CRAG JSONL, page snippets only", () -> new CragLoader("crag-snippets", false))
                .withReferences("CRAG's search_results: each page's snippet"));
        add(new DatasetSpec("truthrl-crag", List.of(), List.of("truthfulness-answer", "em"), false, true,
                "TruthRL's processed CRAG (weizhepei/TruthRL-CRAG as JSONL): its retrieved chunks",
                () -> new TruthRlCragLoader("truthrl-crag"))
                .withReferences("TruthRL's retrieved_chunks, kept as the authors' model.py keeps them (bge_score >= 2;"
                        + " without one, oracle_score >= 3), in order"));
        add(new DatasetSpec("fever", List.of(), List.of("fever-acc"), false, false,
                "FEVER JSONL", FeverLoader::new));
        add(new DatasetSpec("ragtruth", List.of(), EM_F1, false, true,
                "RAGTruth JSONL", RagTruthLoader::new));
        add(new DatasetSpec("flashrag", List.of("jsonl"), EM_F1, false, false,
                "FlashRAG dataset JSONL (id, question, golden_answers, metadata; optional documents)",
                FlashRagLoader::new));
        // The official files. A URL is given only where it serves exactly that file; the ones pinned to a commit
        // have their SHA-256 computed here from that commit's blob. Where the checksum could not be computed it
        // stays null and is printed as unknown.
        official("ramdocs", new Download("RAMDocs_test.jsonl",
                "https://raw.githubusercontent.com/HanNight/RAMDocs/d44454c9ebb0bf513d8236a03decc9fb58704cad/RAMDocs_test.jsonl",
                "c67f699c97349f00cf1bd08d1dbf8ca1d0cc38c306715c93a10a4f961dcf28b7", "https://github.com/HanNight/RAMDocs",
                "RAMDocs test, 500 questions (MIT)"));
        official("nq-open", new Download("NQ-open.dev.jsonl",
                "https://raw.githubusercontent.com/google-research-datasets/natural-questions/fb26a3073b1fe636c97302890a27b491d6530130/nq_open/NQ-open.dev.jsonl",
                "f15567f38099f3615f5b8a685c0aef449c11ad90d3da3735e8d1b98115b40616",
                "https://github.com/google-research-datasets/natural-questions/tree/master/nq_open",
                "NQ-open dev, 3,610 questions (CC BY-SA 3.0)"));
        official("hotpotqa", new Download("hotpot_dev_v1_simplified.json",
                "https://raw.githubusercontent.com/ysymyth/ReAct/6bdb3a1fd38b8188fc7ba4102969fe483df8fdc9/data/hotpot_dev_v1_simplified.json",
                "05001dcdeb2b2b2243a88f23daaf8de9237494cd387e13bc25854d3e031101d3", "https://github.com/ysymyth/ReAct",
                "HotpotQA dev as ReAct ships it (7,405 questions, no paragraphs): the file ReAct and Reasoning Court sample from"),
                new Download("hotpot_dev_distractor_v1.json", "http://curtis.ml.cmu.edu/datasets/hotpot/hotpot_dev_distractor_v1.json",
                        null, "https://hotpotqa.github.io", "HotpotQA dev, distractor setting (question with its 10 paragraphs; CC BY-SA 4.0)"));
        official("fever", new Download("paper_dev.jsonl",
                "https://raw.githubusercontent.com/ysymyth/ReAct/6bdb3a1fd38b8188fc7ba4102969fe483df8fdc9/data/paper_dev.jsonl",
                "41158707810008747946bf23471e82df53e77a513524b9e3ec1c2e674ef5ef8c", "https://fever.ai/dataset/fever.html",
                "FEVER paper dev, 9,999 claims, as ReAct ships it"));
        official("crag", new Download("crag_task_1_and_2_dev_v4.jsonl.bz2",
                "https://github.com/facebookresearch/CRAG/raw/main/data/crag_task_1_and_2_dev_v4.jsonl.bz2", null,
                "https://github.com/facebookresearch/CRAG", "CRAG tasks 1 and 2 dev, with the search results (CC BY-NC 4.0; Git LFS)"));
        official("crag-snippets", specs.get("crag").downloads().toArray(Download[]::new));
        official("truthrl-crag", new Download("truthrl_crag_test.jsonl", null, null,
                "https://huggingface.co/datasets/weizhepei/TruthRL-CRAG",
                "TruthRL's CRAG test split with its retrieved chunks: export it to JSONL (datasets' to_json); CC BY-NC"));
        official("2wikimultihopqa", new Download("dev.json", null, null, "https://github.com/Alab-NII/2wikimultihop",
                "2WikiMultihopQA dev: the zip behind the repository's README link; unpack dev.json"));
        official("musique", new Download("musique_ans_v1.0_dev.jsonl", null, null, "https://github.com/StonyBrookNLP/musique",
                "MuSiQue-Ans dev: the repository's download.sh (Google Drive)"));
        official("musique-answerable", specs.get("musique").downloads().toArray(Download[]::new));
        official("triviaqa", new Download("wikipedia-dev.json", null, null, "https://nlp.cs.washington.edu/triviaqa/",
                "TriviaQA RC Wikipedia dev: unpack qa/wikipedia-dev.json from triviaqa-rc.tar.gz"));
        official("popqa", new Download("popQA.tsv", null, null, "https://github.com/AlexTMallen/adaptive-retrieval",
                "PopQA, 14,267 questions: the repository's popQA.tsv"));
        official("faitheval", new Download("faitheval_inconsistent.json", null, null,
                "https://huggingface.co/datasets/Salesforce/FaithEval-inconsistent-v1.0",
                "FaithEval inconsistent subset (1,000 questions): export the dataset to JSON"));
        official("ambigdocs", new Download("ambigdocs_test.json", null, null, "https://ambigdocs.github.io",
                "AmbigDocs test"));
    }

    /** The official files' question counts. */
    private void questionCounts() {
        // The official files' question counts, where the release or a paper states them (MADAM-RAG, Section 5.1:
        // FaithEval's inconsistent subset is 1,000 questions, RAMDocs 500; the others as their notes say, counted here
        // in the files of ../shared/data where they are). A file without a checksum is told from the paper's by its count.
        questions("ramdocs", "RAMDocs_test.jsonl", 500);
        questions("nq-open", "NQ-open.dev.jsonl", 3_610);
        questions("hotpotqa", "hotpot_dev_v1_simplified.json", 7_405);
        questions("fever", "paper_dev.jsonl", 9_999);
        questions("popqa", "popQA.tsv", 14_267);
        questions("faitheval", "faitheval_inconsistent.json", 1_000);
    }

    private void questions(String name, String file, int n) {
        specs.put(name, specs.get(name).withDownloads(specs.get(name).downloads().stream()
                .map(d -> d.file().equals(file) ? d.withQuestions(n) : d).toArray(Download[]::new)));
    }

    /** The fields every record carries. */
    private void recordFields() {
        // The fields that make a record its dataset's, checked on every read, then those of its gold answers, checked
        // where answers are scored or used as labels (GoldFields): a record without them is refused with the dataset
        // it looks like (FieldCheck). Gold fields are apart so that an unlabelled test split can still be indexed.
        fields("ramdocs", List.of("question", "documents"), List.of("gold_answers"));
        fields("faitheval", List.of("question", "context|contexts"), List.of("answers|answer|answerKey"));
        fields("ambigdocs", List.of("question", "documents"), List.of()); // its answers are its documents'
        fields("hotpotqa", List.of("question"), List.of("answer"));
        fields("2wikimultihopqa", List.of("question"), List.of("answer"));
        fields("musique", List.of("question", "paragraphs"), List.of("answer"));
        fields("musique-answerable", List.of("question", "paragraphs"), List.of("answer"));
        fields("nq-open", List.of("question"), List.of("answer|answers"));
        fields("triviaqa", List.of("Question"), List.of("Answer"));
        fields("popqa", List.of("question"), List.of("possible_answers"));
        fields("crag", List.of("query"), List.of("answer"));
        fields("crag-snippets", List.of("query"), List.of("answer"));
        fields("truthrl-crag", List.of("query", "retrieved_chunks"), List.of("answer")); // CRAG itself has no chunks
        fields("fever", List.of("claim"), List.of("label"));
        fields("ragtruth", List.of("question|query|source_info|prompt", "response|source_info"), List.of());
        fields("flashrag", List.of("question"), List.of("golden_answers"));
    }

    private void fields(String name, List<String> format, List<String> gold) {
        specs.put(name, specs.get(name).withFields(format, gold));
    }

    private void official(String name, Download... files) {
        specs.put(name, specs.get(name).withDownloads(files));
    }

    private void add(DatasetSpec spec) {
        specs.put(spec.name(), spec);
    }


    @Override
    public List<DatasetSpec> datasets() {
        return List.copyOf(specs.values());
    }

    @Override
    public int order() {
        return BUILT_IN;
    }
}
