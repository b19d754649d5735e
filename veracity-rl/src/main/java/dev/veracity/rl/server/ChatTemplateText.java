package dev.veracity.rl.server;

import java.util.List;
import java.util.Optional;

/**
 * The response inside what OpenRLHF sends: its {@code query} is {@code tokenizer.decode(prompt_ids + response_ids,
 * skip_special_tokens=False)}, the prompt with its chat template, the response, and the end-of-turn token(s) the
 * model emitted. Every method is linear in the text's length.
 */
final class ChatTemplateText {

    /** End-of-turn and end-of-text tokens of the common chat templates, removed from a response's end. */
    static final List<String> END_TOKENS = List.of(
            "<|im_end|>",                  // ChatML: Qwen, Yi, many fine-tunes
            "<|eot_id|>", "<|eom_id|>",    // Llama 3
            "<|end_of_text|>",             // Llama 3 base
            "</s>",                        // Llama 2, Mistral
            "<|endoftext|>",               // GPT-2 family, Qwen base, padding in several tokenizers
            "<|end|>",                     // Phi-3
            "<|return|>",                  // gpt-oss (harmony)
            "<end_of_turn>", "<eos>",      // Gemma
            "<\uFF5Cend\u2581of\u2581sentence\uFF5C>"); // DeepSeek

    /** Beginning-of-text tokens a decode may put before the prompt's own text. */
    static final List<String> BEGIN_TOKENS = List.of("<|begin_of_text|>", "<s>", "<bos>", "<|startoftext|>",
            "<\uFF5Cbegin\u2581of\u2581sentence\uFF5C>");

    private ChatTemplateText() {
    }

    /**
     * The text after the prompt: the query must start with the prompt exactly, or once a beginning-of-text token is
     * skipped, or with only whitespace differing (a tokenizer's decode does not always give back the prompt's spaces).
     * Empty when the query does not start with its prompt. Never searches the prompt elsewhere in the query: that
     * would be quadratic on hostile input, and a prompt in the middle is no prefix to remove.
     */
    static Optional<String> afterPrompt(String query, String prompt) {
        for (int start : starts(query)) {
            if (query.startsWith(prompt, start)) {
                return Optional.of(query.substring(start + prompt.length()));
            }
        }
        for (int start : starts(query)) {
            int end = matchIgnoringWhitespace(query, start, prompt);
            if (end >= 0) {
                return Optional.of(query.substring(end));
            }
        }
        return Optional.empty();
    }

    private static int[] starts(String query) {
        for (String bos : BEGIN_TOKENS) {
            if (query.startsWith(bos)) {
                return new int[] {0, bos.length()};
            }
        }
        return new int[] {0};
    }

    /** Where the prompt ends in the query when whitespace is ignored in both, or -1. */
    private static int matchIgnoringWhitespace(String query, int from, String prompt) {
        int q = from;
        int p = 0;
        while (true) {
            while (p < prompt.length() && Character.isWhitespace(prompt.charAt(p))) {
                p++;
            }
            if (p == prompt.length()) {
                return q;
            }
            while (q < query.length() && Character.isWhitespace(query.charAt(q))) {
                q++;
            }
            if (q == query.length() || query.charAt(q) != prompt.charAt(p)) {
                return -1;
            }
            q++;
            p++;
        }
    }

    /**
     * The text without the end tokens at its end (and the whitespace between them): {@code "Paris<|im_end|>"} is
     * {@code "Paris"}, {@code "Paris<|im_end|>\n<|endoftext|><|endoftext|>"} too. A text that does not end in such a
     * token is returned as it is, trailing whitespace included.
     */
    static String withoutEndTokens(String text) {
        int end = text.length();
        while (true) {
            int w = end;
            while (w > 0 && Character.isWhitespace(text.charAt(w - 1))) {
                w--;
            }
            String found = null;
            for (String t : END_TOKENS) {
                if (text.startsWith(t, w - t.length())) {
                    found = t;
                    break;
                }
            }
            if (found == null) {
                return end == text.length() ? text : text.substring(0, end);
            }
            end = w - found.length();
        }
    }
}
