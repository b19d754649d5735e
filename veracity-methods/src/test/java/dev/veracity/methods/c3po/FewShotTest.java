package dev.veracity.methods.c3po;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The authors' few-shot examples: the pools are their text (digests computed from Chen-GX/C-3PO@d60c247's
 * {@code prompt/few_shots} with Python), each prompt draws as their code does (which lists, how many, where in the
 * prompt), the draw is seeded, and the modes pick which agents carry examples.
 */
class FewShotTest {

    static final String Q = "Who directed the film that won Best Picture in 1998?";
    static final List<Doc> DOCS = List.of(new Doc("d1", "Titanic", "Titanic won Best Picture."));

    /**
     * SHA-256 of every example of a pool file as {@code pool \0 key \0 text \0}, in the authors' order, computed from
     * their Python files (nested keys as {@code outer/inner}); with the number of examples.
     */
    private static final Map<FewShotExamples.Pool, String> AUTHORS = Map.of(
            FewShotExamples.Pool.ROADMAP, "42 8d4660e0dc564f807e3ff5c21b9b9cf6c4dbea52a8cc06734e6a4ab92705a12c",
            FewShotExamples.Pool.ANSWER, "8 028260931e2489974756b3a639bb9029e2759c39d79391ffa5c267e47e2f008f",
            FewShotExamples.Pool.ROUTER, "143 ab03fbb4c31ab5a750e2db0632e9c31d14212080fbdb57aed964a1a9dbdbcbfb",
            FewShotExamples.Pool.DECISION, "105 ff9b901ade18e6614e2b570160c1c0f6201f6bfa1152d19877c63e39d45d59d9",
            FewShotExamples.Pool.FILTER, "78 188455fb74cb8cc29779729c604067ce9e87fd69aacc3afcf8884a0ab89940e8");

    @Test
    void thePoolsAreTheAuthorsTextCharacterForCharacter() throws Exception {
        for (FewShotExamples.Pool pool : FewShotExamples.Pool.values()) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            int[] n = {0};
            FewShotExamples.pools(pool).forEach((name, keys) -> keys.forEach((key, list) -> list.forEach(x -> {
                sha.update((name + "\0" + key + "\0" + x + "\0").getBytes(StandardCharsets.UTF_8));
                n[0]++;
            })));
            assertThat(n[0] + " " + HexFormat.of().formatHex(sha.digest())).as(pool.name()).isEqualTo(AUTHORS.get(pool));
        }
        // a trailing space of theirs survives the file format
        assertThat(FewShotExamples.examples(FewShotExamples.Pool.DECISION, "2wikimultihopqa", "no_existing_documents")
                .get(4)).endsWith("Action: [Retrieval] film \"Welcome To Home Gori\" ");
    }

    @Test
    void aDatasetDrawsFromItsPoolElseThePublicOneElseAllSix() {
        var roadmap = FewShotExamples.Pool.ROADMAP;
        assertThat(FewShotExamples.examples(roadmap, "hotpotqa", FewShotExamples.LIST)).hasSize(7);
        assertThat(FewShotExamples.examples(roadmap, "musique-answerable", FewShotExamples.LIST)).hasSize(12);
        // their USE_PUBLIC: NQ and TriviaQA plan with the public examples; so does a dataset of ours
        assertThat(FewShotExamples.examples(roadmap, "nq-open", FewShotExamples.LIST)).hasSize(8)
                .isEqualTo(FewShotExamples.examples(roadmap, "crag", FewShotExamples.LIST));
        assertThat(FewShotExamples.examples(FewShotExamples.Pool.ANSWER, "popqa", "noisy_information")).hasSize(3);
        // the router has no public pool: outside the six, all six together
        assertThat(FewShotExamples.examples(FewShotExamples.Pool.ROUTER, "hotpotqa", "retrieve")).isEmpty();
        assertThat(FewShotExamples.examples(FewShotExamples.Pool.ROUTER, "crag", "retrieve"))
                .hasSize(10 + 10 + 9 + 12 + 13);
    }

    private static List<String> examplesIn(String prompt) {
        List<String> out = new ArrayList<>();
        int start = prompt.indexOf("Here are some examples:\n");
        int end = prompt.indexOf("\n\nNow, process the following question:");
        assertThat(start).as("an examples block").isNotNegative();
        Matcher m = Pattern.compile("(?s)###\nExample (\\d+)\n(.*?)(?=\n\n###\nExample |$)")
                .matcher(prompt.substring(start + "Here are some examples:\n".length(), end));
        while (m.find()) {
            assertThat(m.group(1)).isEqualTo(String.valueOf(out.size() + 1));
            out.add(m.group(2));
        }
        return out;
    }

    @Test
    void theRoadmapAndTheAnswerCarryTheAuthorsDrawBetweenTheInstructionsAndTheQuestion() {
        C3poPrompts zero = new C3poPrompts("hotpotqa");
        C3poPrompts few = new C3poPrompts("hotpotqa", new FewShot(FewShot.Mode.LLM, 42));

        C3poPrompts.Prompt roadmap = few.roadmap(Q);
        String bare = zero.roadmap(Q).text();
        assertThat(roadmap.zeroShot()).isEqualTo(bare);
        int at = bare.indexOf("Now, process the following question:");
        List<String> drawn = examplesIn(roadmap.text());
        // their prompt_llm_planning_few_shot: prefix, "Here are some examples:\n{examples}", suffix, by blank lines
        assertThat(roadmap.text()).isEqualTo(bare.substring(0, at) + "Here are some examples:\n###\nExample 1\n"
                + drawn.get(0) + "\n\n###\nExample 2\n" + drawn.get(1) + "\n\n" + bare.substring(at));
        assertThat(drawn).hasSize(2).doesNotHaveDuplicates()
                .isSubsetOf(FewShotExamples.examples(FewShotExamples.Pool.ROADMAP, "hotpotqa", FewShotExamples.LIST));

        List<String> answer = examplesIn(few.answer(Q, DOCS).text());
        assertThat(answer).hasSize(3); // one of each: correct, noisy, partial information
        for (String key : List.of("correct_information", "noisy_information", "partial_information")) {
            assertThat(answer).filteredOn(FewShotExamples.examples(FewShotExamples.Pool.ANSWER, "hotpotqa", key)::contains)
                    .hasSize(1);
        }
        assertThat(few.answer(Q, DOCS).text()).endsWith(zero.answer(Q, DOCS).text().substring(
                zero.answer(Q, DOCS).text().indexOf("Now, process the following question:")));
        // no documents: their NO_DOCUMENT_PROMPT has no few-shot form; the proxy's prompts stay zero-shot
        assertThat(few.answer(Q, List.of()).text()).isEqualTo(zero.answer(Q, List.of()).text());
        assertThat(few.router(Q).text()).isEqualTo(zero.router(Q).text());
        assertThat(few.filter(Q, DOCS, null).text()).isEqualTo(zero.filter(Q, DOCS, null).text());
        assertThat(few.decision(Q, DOCS, "plan", false).text()).isEqualTo(zero.decision(Q, DOCS, "plan", false).text());
    }

    @Test
    void allAlsoGivesTheProxysAgentsTheirListsOfExamples() {
        C3poPrompts few = new C3poPrompts("2wikimultihopqa", new FewShot(FewShot.Mode.ALL, 42));
        String dataset = "2wikimultihopqa";
        // router: one of each of no_retrieve, retrieve and planning
        List<String> router = examplesIn(few.router(Q).text());
        assertThat(router).hasSize(3);
        for (String key : List.of("no_retrieve", "retrieve", "planning")) {
            assertThat(router).filteredOn(FewShotExamples.examples(FewShotExamples.Pool.ROUTER, dataset, key)::contains)
                    .hasSize(1);
        }
        // hotpotqa's router pool has planning examples only: one example
        assertThat(examplesIn(new C3poPrompts("hotpotqa", new FewShot(FewShot.Mode.ALL, 42)).router(Q).text())).hasSize(1);
        // filter: two of retrieve (single pass) or of planning
        assertThat(examplesIn(few.filter(Q, DOCS, null).text())).hasSize(2)
                .isSubsetOf(FewShotExamples.examples(FewShotExamples.Pool.FILTER, dataset, "retrieve"));
        assertThat(examplesIn(few.filter(Q, DOCS, "find the film").text())).hasSize(2)
                .isSubsetOf(FewShotExamples.examples(FewShotExamples.Pool.FILTER, dataset, "planning"));
        // Decision Maker: two of no_existing_documents, one of each has_existing_documents list, two of LLM when forced
        assertThat(examplesIn(few.decision(Q, List.of(), "plan", false).text())).hasSize(2)
                .isSubsetOf(FewShotExamples.examples(FewShotExamples.Pool.DECISION, dataset, "no_existing_documents"));
        List<String> has = examplesIn(few.decision(Q, DOCS, "plan", false).text());
        assertThat(has).hasSize(2);
        for (String key : List.of("has_existing_documents/has_existing_documents", "has_existing_documents/LLM")) {
            assertThat(has).filteredOn(FewShotExamples.examples(FewShotExamples.Pool.DECISION, dataset, key)::contains)
                    .hasSize(1);
        }
        C3poPrompts.Prompt forced = few.decision(Q, DOCS, "plan", true);
        assertThat(forced.text()).startsWith("You are an intelligent assistant assigned to analyze");
        assertThat(examplesIn(forced.text())).hasSize(2)
                .isSubsetOf(FewShotExamples.examples(FewShotExamples.Pool.DECISION, dataset, "LLM"));
        assertThat(forced.zeroShot()).isEqualTo(new C3poPrompts(dataset).decision(Q, DOCS, "plan", true).text());
    }

    @Test
    void theDrawFollowsTheSeedTheAgentAndThePrompt() {
        C3poPrompts a = new C3poPrompts("musique", new FewShot(FewShot.Mode.ALL, 42));
        C3poPrompts again = new C3poPrompts("musique", new FewShot(FewShot.Mode.ALL, 42));
        C3poPrompts other = new C3poPrompts("musique", new FewShot(FewShot.Mode.ALL, 7));
        // the same prompt gets the same examples (concurrency-proof, cache-friendly); another seed others
        assertThat(again.roadmap(Q)).isEqualTo(a.roadmap(Q));
        assertThat(again.filter(Q, DOCS, "x")).isEqualTo(a.filter(Q, DOCS, "x"));
        assertThat(other.roadmap(Q).text()).isNotEqualTo(a.roadmap(Q).text());
        assertThat(other.roadmap(Q).zeroShot()).isEqualTo(a.roadmap(Q).zeroShot());
        // other questions draw other examples: over 20 questions, many distinct draws from Musique's 12 plans
        List<List<String>> draws = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            draws.add(examplesIn(a.roadmap(Q + " " + i).text()));
        }
        assertThat(draws.stream().distinct().count()).isGreaterThanOrEqualTo(10);
        assertThat(draws.stream().flatMap(List::stream).distinct().count()).isGreaterThanOrEqualTo(8);
    }

    @Test
    void theModes() {
        assertThat(FewShot.AUTO.resolve(false).mode()).isEqualTo(FewShot.Mode.ALL); // one model plays both: ICL
        assertThat(FewShot.AUTO.resolve(true).mode()).isEqualTo(FewShot.Mode.LLM);
        assertThat(new FewShot(FewShot.Mode.NONE, 1).resolve(false).agents()).isEmpty();
        assertThat(new FewShot(FewShot.Mode.LLM, 1).resolve(false).agents())
                .containsExactlyInAnyOrder(Agent.ROADMAP, Agent.ANSWER);
        assertThat(FewShot.AUTO.resolve(true).seed()).isEqualTo(42);
        assertThatThrownBy(() -> new C3poPrompts("hotpotqa", FewShot.AUTO)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> FewShot.Mode.of("some")).hasMessageContaining("auto, none, llm, all");
        C3poPrompts none = new C3poPrompts("hotpotqa", FewShot.NONE);
        assertThat(none.roadmap(Q).text()).isEqualTo(none.roadmap(Q).zeroShot()).doesNotContain("Here are some examples");
    }
}
