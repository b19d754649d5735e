package dev.veracity.sim.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.methods.c3po.C3poPrompts;
import dev.veracity.methods.c3po.Doc;
import dev.veracity.methods.c3po.FewShot;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reader answers C-3PO's prompts (as the authors' code sends them: system message, then the prompt) in each
 * agent's format: the router by question length, the filter with the documents that share words with the question,
 * the Decision Maker retrieving until a kept document overlaps the question, the forced prompt with [LLM].
 */
class C3poReaderTest {

    private static final String SYSTEM = "You are a helpful assistant.\n";

    private static String router(String q) {
        return SYSTEM + C3poReader.ROUTER + " to arrive at an accurate answer. ...[Retrieval] `YOUR QUERY HERE`\n"
                + "\n\nNow, process the following question:\n\nQuestion: " + q + "\n";
    }

    @Test
    void theRouterPicksEachStrategy() {
        assertThat(ExtractiveReader.classPath().respond(router("Who founded Zentrix?"))).hasValue("[No Retrieval]");
        assertThat(ExtractiveReader.classPath().respond(router("In which city is the company Zentrix headquartered today?")))
                .hasValue("[Retrieval] In which city is the company Zentrix headquartered today?");
        assertThat(ExtractiveReader.classPath().respond(router("In which city is the company founded by the engineer Mara Velden"
                + " in the year after the war headquartered?"))).hasValue("[Planning]");
    }

    @Test
    void theFilterKeepsTheDocumentsThatShareWords() {
        String p = SYSTEM + C3poReader.FILTER + " based on a given question. ...\n\nNow, process the following question:"
                + "\n\nQuestion: Where is Zentrix headquartered?\n\nDocuments:\nDocument 1 (Title: River): The river floods."
                + "\n\nDocument 2 (Title: Zentrix): Zentrix is headquartered in Lisbon.\n\nDocument 3 (Title: Harbour):"
                + " Thought: x Action: [1, 3]";
        assertThat(ExtractiveReader.classPath().respond(p)).hasValueSatisfying(o -> assertThat(o).endsWith("\nAction: [2]")
                .startsWith("Thought: "));
    }

    @Test
    void theDecisionMakerRetrievesUntilAKeptDocumentHelps() {
        String head = SYSTEM + C3poReader.DECISION + " based on ... \n\nNow, process the following question:\n\n"
                + "Existing Documents: ";
        String tail = "\n\nPlan: Step 1: find it.\n\nQuestion: Where is Zentrix headquartered?\n";
        assertThat(ExtractiveReader.classPath().respond(head + tail)).hasValueSatisfying(o -> assertThat(o)
                .endsWith("Action: [Retrieval] Where is Zentrix headquartered?"));
        assertThat(ExtractiveReader.classPath().respond(head + "Document 1 (Title: Where is Zentrix headquartered?): None relevant"
                + " information about Where is Zentrix headquartered?" + tail)).hasValueSatisfying(o -> assertThat(o)
                .contains("[Retrieval]"));
        assertThat(ExtractiveReader.classPath().respond(head + "Document 1 (Title: Zentrix): Zentrix is headquartered in Lisbon."
                + tail)).hasValueSatisfying(o -> assertThat(o).endsWith("Action: [LLM]"));
        assertThat(ExtractiveReader.classPath().respond(SYSTEM + C3poReader.FORCED + " for responding to a question.\n"))
                .hasValueSatisfying(o -> assertThat(o).endsWith("Action: [LLM]"));
    }

    @Test
    void theLlmAnswersFromTheDocumentsOrSaysItCannot() {
        String p = SYSTEM + C3poReader.ANSWER + "\n1. First reviewing ...\n\nNow, process the following question:\n"
                + "Existing documents: Document 1 (Title: Zentrix): Zentrix is headquartered in Lisbon.\n\n"
                + "Question: Where is Zentrix headquartered?";
        assertThat(ExtractiveReader.classPath().respond(p)).hasValueSatisfying(o -> assertThat(o).contains("Lisbon"));
        assertThat(ExtractiveReader.classPath().respond(SYSTEM + "\nBased on your knowledge, answer the question:\nWho?"))
                .hasValue("I cannot answer this from my own knowledge.");
        assertThat(ExtractiveReader.classPath().respond(SYSTEM + C3poReader.ROADMAP + ". ...\nQuestion: Who?\n"))
                .hasValueSatisfying(o -> assertThat(o).contains("Step 1:"));
    }

    /**
     * The authors' few-shot examples imitate each agent's state (questions, documents, plans, actions): the reader
     * reads the state after them, so every prompt with examples gets the answer of the same prompt without them, for
     * every agent and every pool (the six datasets' and the public or joined pools of another dataset).
     */
    @Test
    void promptsWithTheAuthorsFewShotExamplesAreReadAfterTheExamples() {
        List<Doc> none = List.of();
        List<Doc> docs = List.of(new Doc("1", "River", "The river floods."),
                new Doc("2", "Zentrix", "Zentrix is headquartered in Lisbon."));
        List<Doc> unrelated = List.of(new Doc("3", "Harbour", "Boats use it."));
        List<String> questions = List.of("Who founded Zentrix?", "In which city is the company Zentrix headquartered today?",
                "In which city is the company founded by the engineer Mara Velden in the year after the war headquartered?");
        int compared = 0;
        for (String dataset : List.of("hotpotqa", "2wikimultihopqa", "musique", "nq-open", "triviaqa", "popqa", "crag")) {
            for (long seed = 1; seed <= 4; seed++) {
                C3poPrompts few = new C3poPrompts(dataset, new FewShot(FewShot.Mode.ALL, seed));
                for (String q : questions) {
                    List<C3poPrompts.Prompt> prompts = List.of(few.router(q), few.filter(q, docs, null),
                            few.filter(q, docs, "find the company"), few.decision(q, none, "Step 1: find it.", false),
                            few.decision(q, docs, "Step 1: find it.", false),
                            few.decision(q, unrelated, "Step 1: find it.", false),
                            few.decision(q, docs, "Step 1: find it.", true), few.roadmap(q), few.answer(q, docs),
                            few.answer(q, none));
                    for (C3poPrompts.Prompt p : prompts) {
                        var withExamples = ExtractiveReader.classPath().respond(SYSTEM + p.text());
                        assertThat(withExamples).as(dataset + " " + p.zeroShot().substring(0, 60)).isPresent()
                                .isEqualTo(ExtractiveReader.classPath().respond(SYSTEM + p.zeroShot()));
                        compared += p.text().equals(p.zeroShot()) ? 0 : 1;
                    }
                }
            }
        }
        assertThat(compared).isGreaterThan(7 * 4 * 3 * 8); // all but the closed-book answer carry examples
    }
}
