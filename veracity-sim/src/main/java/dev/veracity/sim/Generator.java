package dev.veracity.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Turns a validated request into choices: rules, then stop sequences, max_tokens and content faults. */
final class Generator {
    private Generator() {
    }

    /**
     * One generated choice.
     *
     * @param promptLength length of the prompt it answers (completions' {@code text_offset} counts from there)
     * @param logprobHash  seeds this choice's logprob values
     */
    record Choice(int index, String text, String finishReason, int tokens, int promptLength, long logprobHash) {
    }

    record Generation(List<Choice> choices, int promptTokens, int completionTokens, int maxChoiceTokens) {
    }

    static Generation generate(GenerationRequest req, RuleSet rules, FaultKind fault) {
        return generate(req, rules, fault, null);
    }

    /**
     * @param reader the built-in reader (the answer to a prompt, or null when it recognises none), asked for prompts
     *               no rule matches when the rules have no default of their own; null: none
     */
    static Generation generate(GenerationRequest req, RuleSet rules, FaultKind fault, UnaryOperator<String> reader) {
        boolean useReader = reader != null && rules.hasBuiltInDefault();
        List<Choice> choices = new ArrayList<>(req.n() * req.prompts().size());
        int promptTokens = 0;
        int completionTokens = 0;
        int maxChoiceTokens = 0;
        int index = 0;
        for (String prompt : req.prompts()) {
            promptTokens += Tokenizer.count(prompt);
            RuleSet.Selected selected = rules.select(prompt); // one match serves all n samples
            String read = useReader && selected.rule() == rules.fallback()
                    ? reader.apply(prompt) : null;
            for (int sample = 0; sample < req.n(); sample++, index++) {
                RuleMatch match = new RuleMatch(selected.match(), prompt, req.messages(), sample, req.seed(),
                        req.greedy(), req.model(), req.body());
                Choice c = finish(read != null ? read : selected.rule().respond(match), req, fault, index, prompt,
                        Mix.mix(req.seed() ^ 0x6c6f6770726f62L, prompt.hashCode(), index));
                choices.add(c);
                completionTokens += c.tokens();
                maxChoiceTokens = Math.max(maxChoiceTokens, c.tokens());
            }
        }
        return new Generation(List.copyOf(choices), promptTokens, completionTokens, maxChoiceTokens);
    }

    /** Applies what a real server would do while generating: stop at a stop sequence or the token limit. */
    private static Choice finish(String text, GenerationRequest req, FaultKind fault, int index, String prompt, long hash) {
        String finish = "stop";
        int stopAt = firstStop(text, req.stop());
        if (stopAt >= 0) {
            text = text.substring(0, stopAt);
        }
        if (req.maxTokens() >= 0) {
            int cut = Tokenizer.cutOffset(text, req.maxTokens());
            if (cut >= 0) {
                text = text.substring(0, cut);
                finish = "length";
            }
        }
        switch (fault) {
            case TRUNCATED -> {
                int cut = Tokenizer.cutOffset(text, Tokenizer.count(text) / 2);
                if (cut >= 0) {
                    text = text.substring(0, cut);
                }
                finish = "length";
            }
            case EMPTY_CONTENT -> {
                text = "";
                finish = "stop";
            }
            default -> {
            }
        }
        return new Choice(index, text, finish, Tokenizer.count(text), prompt.length(), hash);
    }

    private static int firstStop(String text, List<String> stops) {
        int first = -1;
        for (String s : stops) {
            int at = text.indexOf(s);
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
            }
        }
        return first;
    }
}
