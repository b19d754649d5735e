package dev.veracity.llm;

/**
 * Tokens a call consumed.
 *
 * @param promptTokens     tokens of the input
 * @param completionTokens tokens generated
 * @param exact            false when the numbers were apportioned or estimated (for example one
 *                         completion's share of an n &gt; 1 response whose server reports only a total)
 */
public record TokenUsage(int promptTokens, int completionTokens, boolean exact) {

    public static final TokenUsage ZERO = new TokenUsage(0, 0, true);

    public TokenUsage {
        if (promptTokens < 0 || completionTokens < 0) {
            throw new IllegalArgumentException("token counts must be >= 0: " + promptTokens + ", " + completionTokens);
        }
    }

    public static TokenUsage of(int promptTokens, int completionTokens) {
        return new TokenUsage(promptTokens, completionTokens, true);
    }

    public int totalTokens() {
        return promptTokens + completionTokens;
    }

    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(promptTokens + other.promptTokens, completionTokens + other.completionTokens,
                exact && other.exact);
    }
}
