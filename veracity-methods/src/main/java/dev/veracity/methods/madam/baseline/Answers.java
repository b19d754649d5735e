package dev.veracity.methods.madam.baseline;

import dev.veracity.method.MethodAnswer;
import dev.veracity.methods.madam.AggregatorOutput;
import dev.veracity.methods.madam.AggregatorOutputParser;
import java.util.ArrayList;
import java.util.List;

/** Turns a final "All Correct Answers: [...]" output into the method's answer, recording a parse failure. */
final class Answers {

    private Answers() {
    }

    static MethodAnswer of(String output, String step, List<String> failures) {
        AggregatorOutput parsed = AggregatorOutputParser.parse(output);
        List<String> all = new ArrayList<>(failures);
        if (!parsed.parsed()) {
            String t = output == null ? "" : output.strip().replace('\n', ' ');
            all.add(step + ": no 'All Correct Answers' in '" + (t.length() > 200 ? t.substring(0, 200) + "..." : t) + "'");
        }
        return new MethodAnswer(parsed.prediction(), parsed.answers(), all);
    }
}
