package dev.veracity.method;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Filling a prompt: the named placeholders only, each value as it is, in one pass. */
class PromptTemplateTest {

    @Test
    void onlyTheNamesGivenAreFilledAndEveryValueGoesInAsItIs() {
        PromptTemplate t = PromptTemplate.of("t", "Q: {question}\nDocs: {documents}\nExplanation: {}\nKeep {unknown}.\n{question}");
        String document = "costs $5 or \\$1, see {question} and $0 {documents}";

        String filled = t.fill(Map.of("question", "Who? $1", "documents", document));

        assertThat(filled).isEqualTo("Q: Who? $1\nDocs: " + document + "\nExplanation: {}\nKeep {unknown}.\nWho? $1");
    }

    @Test
    void aTemplateWithoutPlaceholdersOrWithOneAtEitherEndIsWhole() {
        assertThat(PromptTemplate.of("t", "no braces at all").fill(Map.of("question", "x"))).isEqualTo("no braces at all");
        assertThat(PromptTemplate.of("t", "{question}").fill(Map.of("question", "x"))).isEqualTo("x");
        assertThat(PromptTemplate.of("t", "{a}-{b}").fill(Map.of("a", "", "b", "2"))).isEqualTo("-2");
        assertThat(PromptTemplate.of("t", "").fill(Map.of())).isEmpty();
    }

    /** The fill as it was before the placeholders were found once: the pattern's matcher over the text each time. */
    private static String byMatcher(String text, Map<String, String> values) {
        Matcher m = Pattern.compile("\\{([a-z_ ]+)\\}").matcher(text);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (m.find()) {
            String value = values.get(m.group(1));
            out.append(text, last, m.start()).append(value != null ? value : m.group());
            last = m.end();
        }
        return out.append(text, last, text.length()).toString();
    }

    @Test
    void placeholdersFoundOnceFillAsTheMatcherFilledEveryTime() {
        String[] pieces = {"{question}", "{documents}", "{ question}", "{}", "{", "}", "{Q}", "{a_b}", "{unknown}", "x",
            " ", "\n", "$1", "\\", "{{question}}", "{question", "é"};
        Map<String, String> values = Map.of("question", "Q{documents}$", "documents", "D", "a_b", "", " question", "S");
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder b = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                b.append(pieces[random.nextInt(pieces.length)]);
            }
            String text = b.toString();
            PromptTemplate t = PromptTemplate.of("t", text);
            assertThat(t.fill(values)).as(text).isEqualTo(byMatcher(text, values));
            assertThat(t.fill(Map.of())).as(text).isEqualTo(text);
        }
    }
}
