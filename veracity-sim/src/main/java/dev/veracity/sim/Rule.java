package dev.veracity.sim;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A regex over the prompt text and how to answer when it is found ({@link java.util.regex.Matcher#find()},
 * not a whole-text match; use {@code (?s)}, {@code (?i)} etc. inline for flags).
 *
 * <p>Templates are Mustache ({@code {{1}}}, {@code {{name}}} for capture groups; {@code {{sample}}},
 * {@code {{model}}}, {@code {{seed}}}, {@code {{prompt}}}), rendered raw (no HTML escaping); a
 * missing variable renders empty. A rule with several alternatives answers each choice with one of
 * them, picked by {@link RuleMatch#pick}.
 */
public final class Rule {
    // Raw output: answers are not HTML. Missing/null variables (an optional group that did not
    // participate) render empty rather than failing the request.
    private static final Mustache.Compiler MUSTACHE = Mustache.compiler().escapeHTML(false).defaultValue("");

    private final Pattern pattern;
    private final Function<RuleMatch, String> responder;
    private final String description;

    private Rule(Pattern pattern, Function<RuleMatch, String> responder, String description) {
        this.pattern = Objects.requireNonNull(pattern, "pattern");
        this.responder = Objects.requireNonNull(responder, "responder");
        this.description = description;
    }

    /** Answers with one template. */
    public static Rule of(String regex, String template) {
        return of(regex, List.of(template));
    }

    /** Answers each choice with one of these templates, picked deterministically. */
    public static Rule of(String regex, List<String> alternatives) {
        return of(Pattern.compile(regex), alternatives);
    }

    public static Rule of(Pattern pattern, List<String> alternatives) {
        if (alternatives.isEmpty()) {
            throw new IllegalArgumentException("a rule needs at least one response");
        }
        List<Function<RuleMatch, String>> compiled = alternatives.stream().map(Rule::compile).toList();
        Function<RuleMatch, String> responder = compiled.size() == 1
                ? compiled.getFirst()
                : m -> m.pick(compiled).apply(m);
        return new Rule(pattern, responder, alternatives.size() == 1 ? alternatives.getFirst() : alternatives.toString());
    }

    /** Answers with whatever {@code responder} returns: tests can script arbitrary model behaviour. */
    public static Rule of(String regex, Function<RuleMatch, String> responder) {
        return of(Pattern.compile(regex), responder);
    }

    public static Rule of(Pattern pattern, Function<RuleMatch, String> responder) {
        return new Rule(pattern, responder, "<function>");
    }

    /** A template as a responder; plain text skips Mustache altogether. */
    private static Function<RuleMatch, String> compile(String template) {
        Objects.requireNonNull(template, "template");
        if (!template.contains("{{")) {
            return m -> template;
        }
        Template t = MUSTACHE.compile(template);
        return m -> t.execute(m.templateContext());
    }

    public Pattern pattern() {
        return pattern;
    }

    /** What this rule answers for a match (rules can be wrapped: a test pads or edits another rule's answers). */
    public String respond(RuleMatch match) {
        String out = responder.apply(match);
        return out == null ? "" : out;
    }

    @Override
    public String toString() {
        return "Rule[" + pattern + " -> " + description + "]";
    }
}
