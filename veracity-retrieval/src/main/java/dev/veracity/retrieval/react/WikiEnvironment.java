package dev.veracity.retrieval.react;

import dev.veracity.retrieval.PageSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The ReAct Wikipedia environment (Yao et al. 2023, {@code wikienv.py}) over a {@link PageSource} (a
 * {@link PageStore} on disk or of a question's own paragraphs): the observations
 * Reasoning Court's agents see. One instance per episode (it holds the current page and lookup state; not
 * thread-safe); the store is shared.
 *
 * <ul>
 *   <li>{@code Search[entity]}: the first 5 sentences of the page whose title matches (see
 *       {@link PageStore#normalise}); the page becomes current. Else {@code Could not find entity. Similar: [...]}
 *       with the 5 nearest titles, as a Python list like ReAct prints it.</li>
 *   <li>{@code Lookup[keyword]}: {@code (Result i / N) sentence}, the next sentence of the current page containing
 *       the keyword (case-insensitive); the same keyword again advances; after the last, {@code No more results.}
 *       Before any page was found there is nothing to look in, so it answers {@code No more results.}, as ReAct's
 *       {@code construct_lookup_list} does when {@code self.page} is None. A search that finds no page leaves the
 *       current page and its lookup as they were (ReAct resets them only when a page opens).
 *       In {@link LookupMode#PARAGRAPH_TITLE} (the MuSiQue variant) it returns the paragraph with that title, and so
 *       does {@code Search[title]}: Reasoning Court's Section 3.1 names the MuSiQue action {@code Lookup[title]} while
 *       its Appendix B.2.3 examples write it {@code Search[title]}, so both read the paragraph.</li>
 *   <li>{@code Finish[answer]}: ends the episode.</li>
 *   <li>anything else: {@code Invalid action: text}.</li>
 * </ul>
 */
public final class WikiEnvironment {

    /** What {@code Lookup[x]} looks up. */
    public enum LookupMode {
        /** HotpotQA / FEVER: x is a keyword in the current page. */
        KEYWORD,
        /** MuSiQue: x is a paragraph title. */
        PARAGRAPH_TITLE
    }

    public static final int SEARCH_SENTENCES = 5;
    static final int SIMILAR_TITLES = 5;

    private final PageSource store;
    private final LookupMode mode;
    private PageSource.Page page;
    private String lookupKeyword;
    private List<String> lookupList = List.of();
    private int lookupCount;
    private String answer;

    public WikiEnvironment(PageSource store, LookupMode mode) {
        this.store = store;
        this.mode = mode;
    }

    public WikiEnvironment(PageSource store) {
        this(store, LookupMode.KEYWORD);
    }

    /**
     * Reads the model's text with {@link ActionParser} and performs its action; a turn without one is answered
     * {@code Invalid action: text}, as Reasoning Court's agents answer it.
     */
    public String step(String modelText) {
        return switch (ActionParser.parse(modelText)) {
            case AgentTurn.Acted a -> step(a.action());
            case AgentTurn.Failed f -> step(new ReactAction.Invalid(f.text()));
        };
    }

    /** Performs the action and returns the observation. */
    public String step(ReactAction action) {
        return switch (action) {
            case ReactAction.Search s -> mode == LookupMode.KEYWORD ? search(s.entity()) : paragraph(s.entity());
            case ReactAction.Lookup l -> mode == LookupMode.KEYWORD ? lookup(l.keyword()) : paragraph(l.keyword());
            case ReactAction.Finish f -> {
                answer = f.answer();
                yield "Episode finished, answer: " + f.answer();
            }
            case ReactAction.Invalid i -> "Invalid action: " + i.text();
        };
    }

    /** The answer given with {@code Finish[...]}, if the episode finished. */
    public Optional<String> answer() {
        return Optional.ofNullable(answer);
    }

    public boolean finished() {
        return answer != null;
    }

    private String search(String entity) {
        Optional<PageSource.Page> found = store.page(entity);
        if (found.isPresent()) {
            page = found.get();
            lookupKeyword = null; // a new page resets lookups; a miss keeps the page and its lookup, as in ReAct
            lookupList = List.of();
            lookupCount = 0;
            return String.join(" ", page.sentences().subList(0, Math.min(SEARCH_SENTENCES, page.sentences().size())));
        }
        String similar = store.similarTitles(entity, SIMILAR_TITLES).stream()
                .map(t -> "'" + t.replace("'", "\\'") + "'").collect(Collectors.joining(", ", "[", "]"));
        return "Could not find " + entity + ". Similar: " + similar + ".";
    }

    private String lookup(String keyword) {
        if (!keyword.equals(lookupKeyword)) {
            lookupKeyword = keyword;
            String k = keyword.toLowerCase(Locale.ROOT);
            lookupList = new ArrayList<>();
            if (page != null) { // before any page, nothing to look in: "No more results.", as ReAct answers
                for (String s : page.sentences()) {
                    if (s.toLowerCase(Locale.ROOT).contains(k)) {
                        lookupList.add(s);
                    }
                }
            }
            lookupCount = 0;
        }
        if (lookupCount >= lookupList.size()) {
            return "No more results.";
        }
        String obs = "(Result " + (lookupCount + 1) + " / " + lookupList.size() + ") " + lookupList.get(lookupCount);
        lookupCount++;
        return obs;
    }

    private String paragraph(String title) {
        Optional<PageSource.Page> found = store.page(title);
        if (found.isEmpty()) {
            String similar = store.similarTitles(title, SIMILAR_TITLES).stream()
                    .map(t -> "'" + t.replace("'", "\\'") + "'").collect(Collectors.joining(", ", "[", "]"));
            return "Could not find paragraph " + title + ". Similar: " + similar + ".";
        }
        page = found.get();
        return String.join(" ", page.paragraphs());
    }
}
