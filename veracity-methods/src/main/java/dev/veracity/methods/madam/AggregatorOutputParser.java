package dev.veracity.methods.madam;

import dev.veracity.qa.AnswerSetParser;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the aggregator's {@code All Correct Answers: [...]. Explanation: ...}; total, never throws. The authors'
 * code never parses it. Lists are split by {@link AnswerSetParser}, which the strict-multi metric uses too, so the method's
 * answer set and the metric's agree:
 * <ol>
 *   <li>the last "All Correct Answers" marker (any case, markdown allowed), then a bracketed list, or else a comma
 *       / semicolon list up to "Explanation" or the end of the line;</li>
 *   <li>items unquoted or quoted with {@code "}, {@code '} or curly quotes (a quote opens only at the start of an
 *       item, so {@code Rock 'n' Roll} stays whole; commas inside quotes do not split);</li>
 *   <li>no marker: a parse failure; the first bracketed list, else the first line as a list, is the fallback.</li>
 * </ol>
 * Only model output is ever given to this parser, never a prompt, so a document that contains
 * "All Correct Answers: [...]" cannot change the result.
 */
public final class AggregatorOutputParser {

    private static final String MARKER = AnswerSetParser.MARKER;
    private static final Pattern EXPLANATION = Pattern.compile("(?i)explanation\\s*\\**\\s*:");

    private AggregatorOutputParser() {
    }

    public static AggregatorOutput parse(String text) {
        String raw = text == null ? "" : text;
        int marker = raw.toLowerCase(Locale.ROOT).lastIndexOf(MARKER);
        if (marker < 0) {
            int bracket = raw.indexOf('[');
            List<String> fallback;
            if (bracket >= 0) {
                fallback = AnswerSetParser.split(raw, bracket + 1, true).items();
            } else {
                String firstLine = raw.strip().lines().findFirst().orElse("");
                Matcher e = EXPLANATION.matcher(firstLine);
                fallback = AnswerSetParser.split(e.find() ? firstLine.substring(0, e.start()) : firstLine, 0, false).items();
            }
            return new AggregatorOutput(fallback, explanationAfter(raw, 0), raw, false);
        }
        int i = marker + MARKER.length();
        while (i < raw.length() && (Character.isWhitespace(raw.charAt(i)) || raw.charAt(i) == ':' || raw.charAt(i) == '*')) {
            i++;
        }
        AnswerSetParser.Split s;
        if (i < raw.length() && raw.charAt(i) == '[') {
            s = AnswerSetParser.split(raw, i + 1, true);
        } else {
            int eol = raw.indexOf('\n', i);
            String line = eol < 0 ? raw.substring(i) : raw.substring(i, eol);
            Matcher e = EXPLANATION.matcher(line);
            if (e.find()) {
                line = line.substring(0, e.start());
            }
            s = AnswerSetParser.split(line.strip().replaceAll("\\.$", ""), 0, false);
            s = new AnswerSetParser.Split(s.items(), i + line.length());
        }
        return new AggregatorOutput(s.items(), explanationAfter(raw, s.end()), raw, true);
    }

    private static String explanationAfter(String raw, int from) {
        Matcher e = EXPLANATION.matcher(raw);
        return e.find(Math.min(from, raw.length())) ? raw.substring(e.end()).strip() : "";
    }

}
