package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.MatchResult;

/**
 * What a rule's responder gets for one choice: the regex match over the prompt, the request, and
 * which sample (choice) is being generated.
 */
public final class RuleMatch {
    private final MatchResult match;
    private final String prompt;
    private final List<ChatMessage> messages;
    private final int sample;
    private final long seed;
    private final String model;
    private final JsonNode request;
    private final long pickHash;

    RuleMatch(MatchResult match, String prompt, List<ChatMessage> messages, int sample, long seed,
              boolean greedy, String model, JsonNode request) {
        this.match = match;
        this.prompt = prompt;
        this.messages = messages;
        this.sample = sample;
        this.seed = seed;
        this.model = model;
        this.request = request;
        // Greedy decoding (temperature 0) gives every sample what sample 0 gets, as real models do.
        this.pickHash = Mix.mix(seed, prompt.hashCode(), greedy ? 0 : sample);
    }

    /** The regex match (groups, named groups, offsets). */
    public MatchResult match() {
        return match;
    }

    /** Capture group {@code i} (0 = whole match); {@code null} if it did not participate. */
    public String group(int i) {
        return match.group(i);
    }

    /** A named capture group; {@code null} if it did not participate. */
    public String group(String name) {
        return match.group(name);
    }

    public int groupCount() {
        return match.groupCount();
    }

    /** The text the rules matched against (see the package documentation). */
    public String prompt() {
        return prompt;
    }

    /** The chat messages, in order; empty for {@code /v1/completions}. */
    public List<ChatMessage> messages() {
        return messages;
    }

    /** The last message's content, or the prompt for completions. */
    public String lastMessage() {
        return messages.isEmpty() ? prompt : messages.getLast().content();
    }

    /** Which of the request's {@code n} samples this is, from 0. */
    public int sample() {
        return sample;
    }

    /** The request's {@code seed}, or the server's when it has none. */
    public long seed() {
        return seed;
    }

    /** The model the response will name. */
    public String model() {
        return model;
    }

    /** The parsed request body, extras included. */
    public JsonNode request() {
        return request;
    }

    /**
     * One of {@code options}, picked deterministically from (seed, prompt, sample): the same request
     * always picks the same one, while a request's samples may pick different ones (all the same one
     * when {@code temperature} is 0).
     */
    public <T> T pick(List<T> options) {
        if (options.isEmpty()) {
            throw new IllegalArgumentException("nothing to pick from");
        }
        return options.get(Mix.index(pickHash, options.size()));
    }

    /** The variables a template sees: groups by number and name, sample, model, seed, prompt. */
    Map<String, Object> templateContext() {
        Map<String, Object> ctx = new HashMap<>();
        for (int i = 0; i <= match.groupCount(); i++) {
            ctx.put(Integer.toString(i), match.group(i));
        }
        for (String name : match.namedGroups().keySet()) {
            ctx.put(name, match.group(name));
        }
        ctx.putIfAbsent("sample", sample);
        ctx.putIfAbsent("model", model);
        ctx.putIfAbsent("seed", seed);
        ctx.putIfAbsent("prompt", prompt);
        return ctx;
    }
}
