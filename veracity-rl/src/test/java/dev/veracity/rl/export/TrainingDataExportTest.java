package dev.veracity.rl.export;

import static dev.veracity.rl.export.ExportFixtures.JSON;
import static dev.veracity.rl.export.ExportFixtures.NQ_OPEN;
import static dev.veracity.rl.export.ExportFixtures.RAMDOCS;
import static dev.veracity.rl.export.ExportFixtures.copy;
import static dev.veracity.rl.export.ExportFixtures.files;
import static dev.veracity.rl.export.ExportFixtures.jsonl;
import static dev.veracity.rl.export.ExportFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.run.DocumentSource;
import dev.veracity.method.AgentPrompt;
import dev.veracity.method.PromptContext;
import dev.veracity.methods.RolePrompts;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.rl.reward.Label;
import dev.veracity.rl.reward.LabelParse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each format's exact fields and values on real RAMDocs and NQ-open questions. */
class TrainingDataExportTest {

    @TempDir
    Path dir;

    /** The role's prompts for one item, as the method's own code builds them. */
    private static List<AgentPrompt> prompts(String methodRole, String dataset, boolean multi, QaItem item) {
        return RolePrompts.select(methodRole).role().build(item, new PromptContext(dataset, multi, Map.of()));
    }

    private static String content(AgentPrompt p) {
        return p.messages().getFirst().content();
    }

    private static Label label(JsonNode textLabel) {
        assertThat(textLabel.isTextual()).as("labels are JSON strings").isTrue();
        LabelParse parsed = Label.parse(textLabel);
        assertThat(parsed).isInstanceOf(LabelParse.Ok.class);
        return ((LabelParse.Ok) parsed).label();
    }

    @Test
    void verlParquetHasVerlsColumnsAndNestedTypesAndTheSolversPromptAndTheLabel() throws Exception {
        Path data = copy(RAMDOCS, dir);
        List<QaItem> items = Datasets.load("ramdocs", data);
        Path out = dir.resolve("train.parquet");
        TrainingDataExport.Summary s = TrainingDataExport.run(
                ExportSpec.of(ExportFormat.VERL, "ramdocs", data, "march:solver", out));
        assertThat(s.rows()).isEqualTo(3);
        assertThat(s.questions()).isEqualTo(3);
        assertThat(s.prompt()).isEqualTo("march:solver");
        assertThat(ExportFixtures.parquetSchema(out)).containsExactly(
                Map.entry("data_source", "VARCHAR"),
                Map.entry("prompt", "STRUCT(\"role\" VARCHAR, \"content\" VARCHAR)[]"),
                Map.entry("ability", "VARCHAR"),
                Map.entry("reward_model", "STRUCT(style VARCHAR, ground_truth VARCHAR)"),
                Map.entry("extra_info", "STRUCT(split VARCHAR, \"index\" BIGINT, id VARCHAR, question VARCHAR,"
                        + " \"method\" VARCHAR, \"role\" VARCHAR, agent VARCHAR)"));
        List<JsonNode> rows = ExportFixtures.parquetRows(out);
        assertThat(rows).hasSize(3);
        for (int i = 0; i < 3; i++) {
            JsonNode r = rows.get(i);
            QaItem item = items.get(i);
            assertThat(r.get("data_source").asText()).isEqualTo("ramdocs");
            assertThat(r.get("ability").asText()).isEqualTo("fact-reasoning");
            assertThat(r.get("prompt")).hasSize(1);
            assertThat(r.at("/prompt/0/role").asText()).isEqualTo("user");
            assertThat(r.at("/prompt/0/content").asText())
                    .isEqualTo(content(prompts("march:solver", "ramdocs", true, item).getFirst()))
                    .startsWith("Instruction: You must respond based strictly on the information in provided passages.")
                    .contains("Query: " + item.question());
            assertThat(r.at("/reward_model/style").asText()).isEqualTo("rule");
            assertThat(r.at("/extra_info").toString()).isEqualTo(JSON.createObjectNode().put("split", "train")
                    .put("index", i).put("id", "ramdocs-" + i).put("question", item.question()).put("method", "march")
                    .put("role", "solver").put("agent", "solver").toString());
        }
        assertThat(rows.get(0).at("/extra_info/question").asText()).isEqualTo("What is the population of Broken Bow?");
        Label first = label(rows.get(0).at("/reward_model/ground_truth"));
        assertThat(first.answers()).containsExactly("3,559 people");
        assertThat(first.wrong()).containsExactly("10,000 people");
        assertThat(first.documents()).hasSize(3);
        assertThat(first.documents()).extracting(d -> d.text()).containsExactlyElementsOf(
                items.getFirst().documents().stream().map(d -> d.text()).toList());
        assertThat(first.documents()).extracting(d -> d.id()).containsExactly("0", "1", "2");
        // the loader keeps one of RAMDocs' repeated wrong answers, and so does the label
        assertThat(label(rows.get(2).at("/reward_model/ground_truth")).wrong()).isEqualTo(items.get(2).wrong())
                .containsExactly("Raj Kapoor");
        assertThat(files(dir)).containsExactly(RAMDOCS, "train.parquet"); // no staging file left
    }

    @Test
    void verlJsonlIsTheSameRowsAsTheParquetAndAgentNameIsAColumnWhenAsked() throws Exception {
        Path data = copy(RAMDOCS, dir);
        Path parquet = dir.resolve("t.parquet");
        Path json = dir.resolve("t.json");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.VERL, "ramdocs", data, "madam-rag:agent", parquet)
                .withAgentName("single_turn_agent").withSplit("test"));
        TrainingDataExport.Summary s = TrainingDataExport.run(ExportSpec.of(ExportFormat.VERL_JSONL, "ramdocs", data,
                "madam-rag:agent", json).withAgentName("single_turn_agent").withSplit("test"));
        List<JsonNode> rows = jsonl(json);
        assertThat(rows).isEqualTo(ExportFixtures.parquetRows(parquet));
        assertThat(ExportFixtures.parquetSchema(parquet)).containsEntry("agent_name", "VARCHAR").hasSize(6);
        // one row per document agent: 3 + 4 + 7 documents
        assertThat(s.rows()).isEqualTo(14);
        List<String> fields = new ArrayList<>();
        rows.getFirst().fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("data_source", "prompt", "ability", "reward_model", "extra_info", "agent_name");
        assertThat(rows).extracting(r -> r.at("/extra_info/index").asLong()).containsExactlyElementsOf(
                java.util.stream.LongStream.range(0, 14).boxed().toList());
        assertThat(rows).extracting(r -> r.at("/extra_info/agent").asText()).containsExactly(
                "agent-1", "agent-2", "agent-3", "agent-1", "agent-2", "agent-3", "agent-4",
                "agent-1", "agent-2", "agent-3", "agent-4", "agent-5", "agent-6", "agent-7");
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.get("agent_name").asText()).isEqualTo("single_turn_agent");
            assertThat(r.at("/extra_info/split").asText()).isEqualTo("test");
            assertThat(r.at("/extra_info/role").asText()).isEqualTo("agent");
        });
        QaItem third = Datasets.load("ramdocs", data).get(2);
        List<AgentPrompt> agents = prompts("madam-rag:agent", "ramdocs", true, third);
        for (int a = 0; a < 7; a++) {
            JsonNode r = rows.get(7 + a);
            assertThat(r.at("/extra_info/id").asText()).isEqualTo("ramdocs-2");
            assertThat(r.at("/prompt/0/content").asText()).isEqualTo(content(agents.get(a)))
                    .contains("Document: " + third.documents().get(a).text());
            // every agent's row carries the question's label, all documents included
            assertThat(label(r.at("/reward_model/ground_truth")).documents()).hasSize(7);
        }
    }

    @Test
    void openRlhfRowsAreInputLabelAndDatasource() throws Exception {
        Path data = copy(RAMDOCS, dir);
        Path out = dir.resolve("o.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.OPENRLHF, "ramdocs", data, "standard-rag", out).withLimit(2));
        List<JsonNode> rows = jsonl(out);
        assertThat(rows).hasSize(2);
        QaItem first = Datasets.load("ramdocs", data).getFirst();
        JsonNode r = rows.getFirst();
        List<String> fields = new ArrayList<>();
        r.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("input", "label", "datasource");
        assertThat(r.get("datasource").asText()).isEqualTo("ramdocs");
        assertThat(r.get("input").toString()).isEqualTo(TrainingPrompt.messages(
                prompts("standard-rag", "ramdocs", true, first).getFirst().messages()).toString());
        // RAMDocs answers are sets: MADAM-RAG's concatenated prompt with every document
        assertThat(r.at("/input/0/content").asText()).contains("All Correct Answers").contains("Document 3: ");
        assertThat(label(r.get("label")).answers()).containsExactly("3,559 people");
    }

    @Test
    void trlRowsArePromptPlusColumnsAndAClosedBookLabelHasNoDocuments() throws Exception {
        Path data = copy(NQ_OPEN, dir);
        Path out = dir.resolve("trl.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.TRL, "nq", data, "no-rag", out));
        List<JsonNode> rows = jsonl(out);
        assertThat(rows).hasSize(3);
        JsonNode r = rows.getFirst();
        List<String> fields = new ArrayList<>();
        r.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("prompt", "label", "answers", "data_source", "id", "question");
        assertThat(r.get("answers").toString()).isEqualTo("[\"14 December 1972 UTC\",\"December 1972\"]");
        assertThat(r.get("data_source").asText()).isEqualTo("nq-open"); // the alias is written as its dataset
        assertThat(r.get("id").asText()).isEqualTo("nq-open-0");
        assertThat(r.get("question").asText()).isEqualTo("when was the last time anyone was on the moon");
        assertThat(r.at("/prompt/0/content").asText()).contains("when was the last time anyone was on the moon");
        assertThat(r.get("label").asText()).isEqualTo("{\"answers\":[\"14 December 1972 UTC\",\"December 1972\"]}");
        assertThat(label(rows.get(1).get("label")).answers()).containsExactly("Bobby Scott", "Bob Russell");
    }

    @Test
    void slimeRowsArePromptLabelAndMetadataWithTheSourceName() throws Exception {
        Path data = copy(NQ_OPEN, dir);
        Path out = dir.resolve("slime.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.SLIME, "nq-open", data, "cot:reasoner", out).withLimit(1));
        List<JsonNode> rows = jsonl(out);
        assertThat(rows).hasSize(1);
        JsonNode r = rows.getFirst();
        List<String> fields = new ArrayList<>();
        r.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("prompt", "label", "metadata");
        assertThat(r.get("metadata").toString()).isEqualTo("{\"source_name\":\"nq-open\",\"id\":\"nq-open-0\",\"question\":"
                + "\"when was the last time anyone was on the moon\",\"method\":\"cot\",\"role\":\"reasoner\",\"agent\":\"reasoner\"}");
        // cot's few-shot prompt for a dataset the paper did not use is HotpotQA's
        assertThat(r.at("/prompt/0/content").asText()).startsWith(content(prompts("cot", "nq-open", false,
                Datasets.load("nq-open", data).getFirst()).getFirst()).substring(0, 40));
    }

    @Test
    void trlSftAndDpoTakeTheirTextsByQuestionIdAndSkipQuestionsWithout() throws Exception {
        Path data = copy(NQ_OPEN, dir);
        Path responses = write(dir.resolve("responses.jsonl"),
                "{\"id\": \"nq-open-0\", \"response\": \"December 1972\", \"reward\": 1.0}",
                "{\"id\": \"nq-open-2\", \"response\": \"One season.\"}",
                "{\"id\": \"nq-open-2\", \"response\": \"one\"}");
        Path sft = dir.resolve("sft.jsonl");
        TrainingDataExport.Summary s = TrainingDataExport.run(ExportSpec.of(ExportFormat.TRL_SFT, "nq-open", data,
                "no-rag", sft).withResponses(responses));
        assertThat(s.rows()).isEqualTo(3);
        assertThat(s.withoutCompletion()).isEqualTo(1); // nq-open-1 has no response
        List<JsonNode> rows = jsonl(sft);
        QaItem first = Datasets.load("nq-open", data).getFirst();
        String prompt = content(prompts("no-rag", "nq-open", false, first).getFirst());
        assertThat(rows.getFirst().toString()).isEqualTo(JSON.createObjectNode().set("messages", JSON.createArrayNode()
                .add(JSON.createObjectNode().put("role", "user").put("content", prompt))
                .add(JSON.createObjectNode().put("role", "assistant").put("content", "December 1972"))).toString());
        assertThat(rows).extracting(r -> r.at("/messages/1/content").asText())
                .containsExactly("December 1972", "One season.", "one");

        Path pairs = write(dir.resolve("pairs.jsonl"),
                "{\"id\": \"nq-open-1\", \"chosen\": \"Bobby Scott and Bob Russell\", \"rejected\": \"The Hollies\"}");
        Path dpo = dir.resolve("dpo.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.TRL_DPO, "nq-open", data, "no-rag", dpo).withPairs(pairs));
        JsonNode d = jsonl(dpo).getFirst();
        List<String> fields = new ArrayList<>();
        d.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("prompt", "chosen", "rejected");
        assertThat(d.get("chosen").toString()).isEqualTo("[{\"role\":\"assistant\",\"content\":\"Bobby Scott and Bob Russell\"}]");
        assertThat(d.get("rejected").toString()).isEqualTo("[{\"role\":\"assistant\",\"content\":\"The Hollies\"}]");
        assertThat(d.at("/prompt/0/content").asText()).contains("who wrote he ain't heavy he's my brother lyrics");
    }

    @Test
    void madamResponsesNameTheirAgent() throws Exception {
        Path data = copy(RAMDOCS, dir);
        Path responses = write(dir.resolve("r.jsonl"),
                "{\"id\": \"ramdocs-0\", \"agent\": \"agent-3\", \"response\": \"Answer: unknown. Explanation: noise.\"}");
        Path out = dir.resolve("sft.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.TRL_SFT, "ramdocs", data, "madam-rag:agent", out)
                .withResponses(responses));
        JsonNode r = jsonl(out).getFirst();
        QaItem first = Datasets.load("ramdocs", data).getFirst();
        assertThat(r.at("/messages/0/content").asText())
                .isEqualTo(content(prompts("madam-rag:agent", "ramdocs", true, first).get(2)));
        assertThat(r.at("/messages/1/content").asText()).isEqualTo("Answer: unknown. Explanation: noise.");
    }

    @Test
    void llamaFactoryAlpacaSftAndPreferenceWithTheirDatasetInfoEntries() throws Exception {
        Path data = copy(NQ_OPEN, dir);
        Path lf = Files.createDirectory(dir.resolve("lf"));
        write(lf.resolve("dataset_info.json"), "{\"alpaca_en_demo\": {\"file_name\": \"alpaca_en_demo.json\"}}");
        Path responses = write(dir.resolve("r.jsonl"), "{\"id\": \"nq-open-0\", \"response\": \"December 1972\"}");
        Path sft = lf.resolve("nq_sft.jsonl");
        TrainingDataExport.Summary s = TrainingDataExport.run(ExportSpec.of(ExportFormat.LLAMAFACTORY, "nq-open", data,
                "no-rag", sft).withResponses(responses));
        assertThat(s.datasetInfo()).isEqualTo(lf.resolve("dataset_info.json").toAbsolutePath());
        QaItem first = Datasets.load("nq-open", data).getFirst();
        String prompt = content(prompts("no-rag", "nq-open", false, first).getFirst());
        assertThat(jsonl(sft)).singleElement().hasToString(JSON.createObjectNode().put("instruction", prompt)
                .put("input", "").put("output", "December 1972").toString());

        Path pairs = write(dir.resolve("p.jsonl"), "{\"id\": 0, \"chosen\": \"a\", \"rejected\": \"b\"}".replace(
                "0", "\"nq-open-0\""));
        Path pref = lf.resolve("nq_dpo.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.LLAMAFACTORY, "nq-open", data, "no-rag", pref).withPairs(pairs)
                .withEntryName("veracity_nq_dpo"));
        assertThat(jsonl(pref)).singleElement().hasToString(JSON.createObjectNode().put("instruction", prompt)
                .put("input", "").put("chosen", "a").put("rejected", "b").toString());
        JsonNode info = JSON.readTree(lf.resolve("dataset_info.json").toFile());
        List<String> names = new ArrayList<>();
        info.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("alpaca_en_demo", "nq_sft", "veracity_nq_dpo"); // theirs kept
        assertThat(info.get("nq_sft").toString()).isEqualTo("{\"file_name\":\"nq_sft.jsonl\",\"formatting\":\"alpaca\","
                + "\"columns\":{\"prompt\":\"instruction\",\"query\":\"input\",\"response\":\"output\"}}");
        assertThat(info.get("veracity_nq_dpo").toString()).isEqualTo("{\"file_name\":\"nq_dpo.jsonl\",\"formatting\":"
                + "\"alpaca\",\"ranking\":true,\"columns\":{\"prompt\":\"instruction\",\"query\":\"input\",\"chosen\":"
                + "\"chosen\",\"rejected\":\"rejected\"}}");
    }

    @Test
    void retrievedDocumentsReplaceTheDatasetsInThePromptAndTheLabel() throws Exception {
        Path data = copy(NQ_OPEN, dir);
        Retriever index = Retriever.of((q, k) -> List.of(
                new Passage("wiki-7", "Apollo 17", "Apollo 17 landed in December 1972.", 3.0),
                new Passage("wiki-9", "", "Gene Cernan was the last to walk on the Moon.", 2.0)).subList(0, k));
        Path out = dir.resolve("rag.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.OPENRLHF, "nq-open", data, "standard-rag", out).withLimit(1)
                .withDocuments(DocumentSource.index(index, dir, null, 2, "bm25")));
        JsonNode r = jsonl(out).getFirst();
        assertThat(r.at("/input/0/content").asText()).contains("Apollo 17. Apollo 17 landed in December 1972.")
                .contains("Gene Cernan");
        Label l = label(r.get("label"));
        assertThat(l.documents()).extracting(d -> d.id()).containsExactly("wiki-7", "wiki-9");
        assertThat(l.documents().getFirst().title()).isEqualTo("Apollo 17");

        Path none = dir.resolve("none.jsonl");
        TrainingDataExport.run(ExportSpec.of(ExportFormat.OPENRLHF, "nq-open", data, "standard-rag", none).withLimit(1)
                .withDocuments(DocumentSource.index(index, dir, null, 1, "bm25")).withLabelDocuments(false));
        JsonNode n = jsonl(none).getFirst();
        assertThat(n.at("/input/0/content").asText()).contains("Apollo 17").doesNotContain("Cernan");
        assertThat(n.get("label").asText()).isEqualTo("{\"answers\":[\"14 December 1972 UTC\",\"December 1972\"]}");
    }
}
