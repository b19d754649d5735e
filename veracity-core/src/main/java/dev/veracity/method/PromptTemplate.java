package dev.veracity.method;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A prompt kept verbatim as a resource, with named placeholders such as {@code {question}}. Only the names the
 * caller fills are replaced, in one pass, so braces that belong to the prompt ("Explanation: {}") stay as the
 * paper wrote them, and a document that contains "{question}" is never expanded again.
 */
public final class PromptTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_ ]+)\\}");

    private final String name;
    private final String text;
    /**
     * The text's placeholders, found once, in order. A prompt is filled for every call, and C-3PO's carry pages of
     * few-shot examples that a scan per call read again each time (3% of bench run's CPU).
     */
    private final List<Placeholder> placeholders;

    /** A {@code {name}} in the text, from {@code start} to {@code end}. */
    private record Placeholder(int start, int end, String name) {
    }

    private PromptTemplate(String name, String text) {
        this.name = name;
        this.text = text;
        List<Placeholder> found = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            found.add(new Placeholder(m.start(), m.end(), m.group(1)));
        }
        this.placeholders = List.copyOf(found);
    }

    /** Loads a template from the classpath, relative to {@code owner}'s package. */
    public static PromptTemplate resource(Class<?> owner, String file) {
        try (InputStream in = owner.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("prompt resource " + file + " is missing next to " + owner.getName());
            }
            String raw = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
            return new PromptTemplate(file, stripComments(raw));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read prompt " + file, e);
        }
    }

    public static PromptTemplate of(String name, String text) {
        return new PromptTemplate(name, text);
    }

    /**
     * Lines starting with "#!" at the top of a prompt file are notes for readers (the paper section it comes
     * from); they are not sent.
     */
    private static String stripComments(String raw) {
        String s = raw;
        while (s.startsWith("#!")) {
            int nl = s.indexOf('\n');
            s = nl < 0 ? "" : s.substring(nl + 1);
        }
        return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    }

    /** The prompt with each {@code {name}} in {@code values} replaced; other braces are left alone. */
    public String fill(Map<String, String> values) {
        StringBuilder out = new StringBuilder(text.length() + 256);
        int last = 0;
        for (Placeholder p : placeholders) {
            String value = values.get(p.name());
            // appended as is: appendReplacement would escape a value's every '$' and '\\' and then read it back
            // char by char, a cost that grows with the documents a prompt carries
            out.append(text, last, p.start());
            if (value != null) {
                out.append(value);
            } else {
                out.append(text, p.start(), p.end());
            }
            last = p.end();
        }
        return out.append(text, last, text.length()).toString();
    }

    public String name() {
        return name;
    }

    public String text() {
        return text;
    }
}
