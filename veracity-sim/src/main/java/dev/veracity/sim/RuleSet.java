package dev.veracity.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.samskivert.mustache.MustacheException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * An ordered list of {@link Rule}s plus a fallback: the first rule whose pattern is found in the
 * prompt answers; when none is, the fallback does (by default {@value #DEFAULT_RESPONSE}). Immutable.
 *
 * <p>Rule files are JSON:
 * <pre>{@code
 * {
 *   "rules": [
 *     {"pattern": "capital of (\\w+)", "response": "The capital of {{1}} is unknown to me."},
 *     {"pattern": "(?i)coin", "responses": ["Heads.", "Tails."]}
 *   ],
 *   "default": "I don't know."
 * }
 * }</pre>
 * {@code "default"} may also be a list of alternatives; {@code "comment"} keys are ignored anywhere.
 */
public final class RuleSet {

    public static final String DEFAULT_RESPONSE = "I don't know.";

    private static final RuleSet EMPTY = new RuleSet(List.of(), Rule.of("", DEFAULT_RESPONSE));
    private static final Set<String> RULE_KEYS = Set.of("pattern", "response", "responses", "comment");
    private static final Set<String> FILE_KEYS = Set.of("rules", "default", "comment");

    private final List<Rule> rules;
    private final Rule fallback;

    private RuleSet(List<Rule> rules, Rule fallback) {
        this.rules = List.copyOf(rules);
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    /** No rules: everything gets the default answer. */
    public static RuleSet empty() {
        return EMPTY;
    }

    public static RuleSet of(Rule... rules) {
        return of(List.of(rules));
    }

    public static RuleSet of(List<Rule> rules) {
        return new RuleSet(rules, EMPTY.fallback);
    }

    /** This rule set with a fallback answering {@code template} (a Mustache template, as in rules). */
    public RuleSet withDefault(String template) {
        return withDefault(List.of(template));
    }

    public RuleSet withDefault(List<String> alternatives) {
        return new RuleSet(rules, Rule.of("", alternatives));
    }

    /** This rule set with a scripted fallback; the fallback's match is an empty match. */
    public RuleSet withDefault(java.util.function.Function<RuleMatch, String> responder) {
        return new RuleSet(rules, Rule.of("", responder));
    }

    /** This rule set with {@code more} rules appended (they come after the existing ones). */
    public RuleSet with(Rule... more) {
        List<Rule> all = new ArrayList<>(rules);
        all.addAll(List.of(more));
        return new RuleSet(all, fallback);
    }

    public List<Rule> rules() {
        return rules;
    }

    /** Whether the fallback is the built-in "I don't know." (no default was set), which the reader may replace. */
    public boolean hasBuiltInDefault() {
        return EMPTY != null && fallback == EMPTY.fallback;
    }

    public Rule fallback() {
        return fallback;
    }

    /** The first rule found in {@code prompt} (or the fallback) with its match. */
    Selected select(String prompt) {
        for (Rule r : rules) {
            Matcher m = r.pattern().matcher(prompt);
            if (m.find()) {
                return new Selected(r, m.toMatchResult());
            }
        }
        Matcher m = fallback.pattern().matcher(prompt);
        m.find();
        return new Selected(fallback, m.toMatchResult());
    }

    record Selected(Rule rule, java.util.regex.MatchResult match) {
    }

    /**
     * Reads a rule file (format above).
     *
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException if it is not a valid rule file; the message names the file and
     *                                  the offending rule by index ({@code rules[2]})
     */
    public static RuleSet load(Path file) throws IOException {
        return parse(Files.readString(file), file.toString());
    }

    /** Parses rule-file JSON; {@code source} names it in error messages. */
    public static RuleSet parse(String json, String source) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(source + ": not valid JSON: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ")"), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(source + ": expected a JSON object with \"rules\"");
        }
        checkKeys(root, FILE_KEYS, source);
        JsonNode rulesNode = root.get("rules");
        if (rulesNode == null || !rulesNode.isArray()) {
            throw new IllegalArgumentException(source + ": \"rules\" must be an array");
        }
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < rulesNode.size(); i++) {
            rules.add(parseRule(rulesNode.get(i), source + ": rules[" + i + "]"));
        }
        RuleSet set = of(rules);
        JsonNode def = root.get("default");
        if (def != null && !def.isNull()) {
            String where = source + ": default";
            try {
                set = set.withDefault(responses(def, where));
            } catch (MustacheException e) {
                throw new IllegalArgumentException(where + ": invalid template: " + e.getMessage(), e);
            }
        }
        return set;
    }

    private static Rule parseRule(JsonNode node, String where) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(where + ": expected an object with \"pattern\" and \"response\" or \"responses\"");
        }
        checkKeys(node, RULE_KEYS, where);
        JsonNode pattern = node.get("pattern");
        if (pattern == null || !pattern.isTextual()) {
            throw new IllegalArgumentException(where + ": missing string \"pattern\"");
        }
        boolean one = node.has("response");
        boolean many = node.has("responses");
        if (one == many) {
            throw new IllegalArgumentException(where + ": needs exactly one of \"response\" (a string) or \"responses\" (a list)");
        }
        Pattern compiled;
        try {
            compiled = Pattern.compile(pattern.textValue());
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(where + ": invalid regex " + quote(pattern.textValue()) + ": "
                    + e.getDescription() + " near index " + e.getIndex(), e);
        }
        List<String> alternatives = one ? responses(node.get("response"), where + ".response", false)
                : responses(node.get("responses"), where + ".responses", true);
        try {
            return Rule.of(compiled, alternatives);
        } catch (MustacheException e) {
            throw new IllegalArgumentException(where + ": invalid template: " + e.getMessage(), e);
        }
    }

    /** A string, or a non-empty list of strings. */
    private static List<String> responses(JsonNode node, String where) {
        return responses(node, where, node.isArray());
    }

    private static List<String> responses(JsonNode node, String where, boolean list) {
        if (!list) {
            if (!node.isTextual()) {
                throw new IllegalArgumentException(where + ": must be a string");
            }
            return List.of(node.textValue());
        }
        if (!node.isArray() || node.isEmpty()) {
            throw new IllegalArgumentException(where + ": must be a non-empty list of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode n : node) {
            if (!n.isTextual()) {
                throw new IllegalArgumentException(where + ": must be a non-empty list of strings");
            }
            out.add(n.textValue());
        }
        return out;
    }

    private static void checkKeys(JsonNode node, Set<String> allowed, String where) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!allowed.contains(key)) {
                throw new IllegalArgumentException(where + ": unknown key \"" + key + "\" (expected one of "
                        + allowed.stream().sorted().toList() + ")");
            }
        }
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }

    @Override
    public String toString() {
        return "RuleSet" + rules + " default " + fallback;
    }
}
