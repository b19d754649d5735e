package dev.veracity.retrieval.react;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.retrieval.corpus.Document;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class WikiEnvironmentTest {

    static PageStore store;

    @BeforeAll
    static void pages() {
        store = PageStore.of(List.of(
                new Document("1", "Colorado orogeny", "The Colorado orogeny was an episode of mountain building in Colorado. "
                        + "It began 1780 million years ago. The eastern sector extends into the High Plains. "
                        + "Dr. Smith studied it. Its second sentence count is high. It ended slowly. Sixth sentence here."),
                new Document("2", "High Plains", "The High Plains rise from 1,800 to 7,000 ft. They are in the U.S. West."),
                new Document("3", "Colorado River", "The Colorado River flows southwest."),
                new Document("4", "Colorado orogeny", "A second paragraph mentions the eastern sector again.")));
    }

    @AfterAll
    static void close() {
        store.close();
    }

    @Test
    void searchReturnsFirstFiveSentencesOfTheExactTitle() {
        var env = new WikiEnvironment(store);
        assertThat(env.step("Search[ \"colorado_OROGENY\" ]")).isEqualTo("The Colorado orogeny was an episode of mountain "
                + "building in Colorado. It began 1780 million years ago. The eastern sector extends into the High Plains. "
                + "Dr. Smith studied it. Its second sentence count is high.");
    }

    @Test
    void searchMissSuggestsSimilarTitles() {
        var env = new WikiEnvironment(store);
        String obs = env.step("Search[Colorado]");
        assertThat(obs).startsWith("Could not find Colorado. Similar: [").endsWith("].")
                .contains("'Colorado orogeny'", "'Colorado River'").doesNotContain("High Plains");
        assertThat(env.step("Search[Atlantis]")).isEqualTo("Could not find Atlantis. Similar: [].");
    }

    @Test
    void lookupAdvancesThenRunsOut() {
        var env = new WikiEnvironment(store);
        env.step("Search[Colorado orogeny]");
        assertThat(env.step("Lookup[eastern sector]"))
                .isEqualTo("(Result 1 / 2) The eastern sector extends into the High Plains.");
        assertThat(env.step("lookup [Eastern Sector]")).isEqualTo("(Result 1 / 2) The eastern sector extends into the High Plains.");
        assertThat(env.step("Lookup[Eastern Sector]")).isEqualTo("(Result 2 / 2) A second paragraph mentions the eastern sector again.");
        assertThat(env.step("Lookup[Eastern Sector]")).isEqualTo("No more results.");
        assertThat(env.step("Lookup[volcano]")).isEqualTo("No more results.");
    }

    /**
     * ReAct's wikienv: a lookup with no page open builds an empty list ({@code self.page} is None), so it answers "No
     * more results."; only a search that opens a page resets the lookup, a miss leaves page and lookup as they were.
     */
    @Test
    void lookupBeforeAnySearchAndAfterAMissAnswerAsReAct() {
        var env = new WikiEnvironment(store);
        assertThat(env.step("Lookup[eastern sector]")).isEqualTo("No more results.");
        assertThat(env.step("Search[Atlantis]")).startsWith("Could not find Atlantis.");
        assertThat(env.step("Lookup[eastern sector]")).isEqualTo("No more results.");
        env.step("Search[Colorado orogeny]");
        assertThat(env.step("Lookup[eastern sector]"))
                .isEqualTo("(Result 1 / 2) The eastern sector extends into the High Plains.");
        assertThat(env.step("Search[Colorado]")).startsWith("Could not find Colorado.");
        assertThat(env.step("Lookup[eastern sector]"))
                .isEqualTo("(Result 2 / 2) A second paragraph mentions the eastern sector again.");
        env.step("Search[High Plains]");
        assertThat(env.step("Lookup[eastern sector]")).isEqualTo("No more results.");
        assertThat(env.step("Lookup[rise]")).startsWith("(Result 1 / 1) The High Plains rise from 1,800 to 7,000 ft.");
    }

    @Test
    void musiqueLookupReturnsAParagraphByTitle() {
        var env = new WikiEnvironment(store, WikiEnvironment.LookupMode.PARAGRAPH_TITLE);
        assertThat(env.step("Lookup[high plains]")).isEqualTo("The High Plains rise from 1,800 to 7,000 ft. They are in the U.S. West.");
        assertThat(env.step("Lookup[Low Plains]")).startsWith("Could not find paragraph Low Plains. Similar: ['High Plains'");
        // Appendix B.2.3's examples write the title lookup as Search[title]: the same paragraph
        assertThat(env.step("Search[high plains]")).isEqualTo(env.step("Lookup[High Plains]"));
    }

    @Test
    void finishAndInvalidActions() {
        var env = new WikiEnvironment(store);
        assertThat(env.step("I think I should search")).isEqualTo("Invalid action: I think I should search");
        assertThat(env.finished()).isFalse();
        env.step("Action 3: Finish[1,800 to 7,000 ft]");
        assertThat(env.answer()).contains("1,800 to 7,000 ft");
    }

    /**
     * The environment reads a model's text with the agents' parser: brackets nest, an action cut off before its
     * closing bracket is no action (not a search or an answer of what was written so far), and anything else is an
     * invalid action.
     */
    @Test
    void stepReadsTextWithTheAgentsParser() {
        var env = new WikiEnvironment(store);
        assertThat(env.step("search[ 'High Plains' ]")).startsWith("The High Plains rise");
        assertThat(env.step("Thought: hm\nAction 2: Lookup[ft]\nObservation 2: x")).startsWith("(Result 1 / 1) The High Plains");
        assertThat(env.step("Search[Tom [Hanks]]")).startsWith("Could not find Tom [Hanks]. Similar: [");
        assertThat(env.step("Action 4: Search[High Plains")).isEqualTo("Invalid action: Search[High Plains");
        assertThat(env.step("Action 4: Finish[Richard Ni")).isEqualTo("Invalid action: Finish[Richard Ni");
        assertThat(env.finished()).isFalse();
        assertThat(env.step("Search[]")).isEqualTo("Invalid action: Search[]");
        assertThat(env.step("Jump[x]")).isEqualTo("Invalid action: Jump[x]");
        assertThat(env.step((String) null)).isEqualTo("Invalid action: ");
        assertThat(env.finished()).isFalse();
        assertThat(env.step("The years are known.\nAction 5: Finish[[1998, 2003]]")).isEqualTo("Episode finished, answer: [1998, 2003]");
        assertThat(env.answer()).contains("[1998, 2003]");
    }

    @Test
    void splitterKeepsAbbreviationsAndInitials() {
        assertThat(SentenceSplitter.split("Mr. J. R. Smith lives in the U.S. state of Ohio. He left! Did he? \"Yes.\" 1990 came."))
                .containsExactly("Mr. J. R. Smith lives in the U.S. state of Ohio.", "He left!", "Did he?", "\"Yes.\"", "1990 came.");
    }
}
