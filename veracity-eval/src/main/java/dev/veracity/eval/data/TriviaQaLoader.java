package dev.veracity.eval.data;

import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * TriviaQA official JSON ({@code qa/wikipedia-dev.json}, {@code qa/web-dev.json}, {@code unfiltered-web-*.json}, also
 * the rc / unfiltered files): one object whose {@code Data} array is streamed element by element (the files are
 * hundreds of MB). Each element: {@code QuestionId}, {@code Question},
 * {@code Answer {Value, Aliases, NormalizedAliases, NormalizedValue}} (one gold answer: Value, then Aliases, then
 * NormalizedAliases, distinct; test files without it are refused where scored), {@code EntityPages[{Title, Filename, DocSource}]},
 * {@code SearchResults[{Title, Url, Description, Filename, Rank}]}. Documents are the search results' snippets
 * (title, text = Description, labels url / rank / filename); the evidence files themselves are not read.
 * Metadata: {@code entity_pages} (titles joined by " | "), {@code question_source}.
 */
final class TriviaQaLoader extends RecordLoader {

    TriviaQaLoader() {
        super("triviaqa");
    }

    @Override
    Set<String> wrapperFields() {
        return Set.of("Data", "data");
    }

    @Override
    protected QaItem convert(Record rec) {
        Fields f = rec.fields();
        String question = f.text("Question");
        List<String> forms = new ArrayList<>();
        Fields answer = f.object("Answer");
        if (answer != null) {
            String value = answer.optText("Value");
            if (value != null) {
                forms.add(value);
            }
            forms.addAll(answer.strings("Aliases"));
            forms.addAll(answer.strings("NormalizedAliases"));
        }
        List<Document> docs = new ArrayList<>();
        int i = 0;
        for (Fields r : f.objects("SearchResults", false)) {
            docs.add(new Document(Integer.toString(i++), r.optText("Title"), r.optText("Description"),
                    new Items.Meta().put("url", r.optText("Url")).put("rank", r.optText("Rank"))
                            .put("filename", r.optText("Filename")).build()));
        }
        List<String> pages = new ArrayList<>();
        for (Fields p : f.objects("EntityPages", false)) {
            String title = p.optText("Title");
            if (title != null) {
                pages.add(title);
            }
        }
        Items.Meta meta = new Items.Meta().put("entity_pages", pages.isEmpty() ? null : String.join(" | ", pages))
                .put("question_source", f.optText("QuestionSource"));
        String id = f.optText("QuestionId");
        return new QaItem(id == null ? rec.fallbackId(name()) : id, question, docs, Items.oneGold(forms), null, null,
                meta.build(), rec.node());
    }
}
