package dev.veracity.methods.c3po;

/**
 * The Reasoning Router's three strategies (section 4.2) and the action each is written as (Appendix B.1).
 */
public enum Strategy {
    /** Direct answering: the LLM answers from its own knowledge. */
    NO_RETRIEVAL("No Retrieval", "no-retrieval"),
    /** Single pass: one query, the filter keeps documents, the LLM answers with them. */
    RETRIEVAL("Retrieval", "retrieval"),
    /** Multi-step: the LLM's roadmap, retrieval-filter loops led by the Decision Maker, then the LLM answers. */
    PLANNING("Planning", "planning");

    private final String tag;
    private final String optionName;

    Strategy(String tag, String optionName) {
        this.tag = tag;
        this.optionName = optionName;
    }

    /** The text between the brackets, e.g. {@code No Retrieval}. */
    public String tag() {
        return tag;
    }

    /** The name in options and results, e.g. {@code no-retrieval}. */
    public String optionName() {
        return optionName;
    }

    /** The router's output for this strategy: {@code [Retrieval] query}, {@code [Planning]}, {@code [No Retrieval]}. */
    public String action(String query) {
        return this == RETRIEVAL ? "[" + tag + "] " + query : "[" + tag + "]";
    }

    /** The strategy whose bracket text is exactly {@code tag} (the authors compare after strip), or null. */
    static Strategy ofTag(String tag) {
        for (Strategy s : values()) {
            if (s.tag.equals(tag)) {
                return s;
            }
        }
        return null;
    }

    /** The strategy of an option value ({@code no-retrieval}, {@code retrieval}, {@code planning}). */
    public static Strategy ofOption(String name) {
        for (Strategy s : values()) {
            if (s.optionName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown C-3PO strategy '" + name + "'; one of no-retrieval, retrieval, planning");
    }
}
