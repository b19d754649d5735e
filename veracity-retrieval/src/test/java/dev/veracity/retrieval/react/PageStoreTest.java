package dev.veracity.retrieval.react;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.retrieval.PageSource.Page;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.testing.CpuBudget;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page store on disk: each dump format, exact and similar lookups, bad input, opening time and throughput. */
class PageStoreTest {

    @TempDir
    Path dir;

    private Path build(String name, PageFormat format, String content) throws IOException {
        Path file = dir.resolve(name);
        if (name.endsWith(".gz")) {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
                out.write(content.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            Files.writeString(file, content);
        }
        Path store = dir.resolve("store-" + format.cliName());
        try (PageStoreBuilder b = PageStoreBuilder.create(store, format, file, null)) {
            PageReader.read(file, format, b::add);
        }
        return store;
    }

    @Test
    void hotpotAbstractsKeepTheirSentencesAndAreFoundByTitleOrLead() throws IOException {
        Path store = build("abstracts.jsonl.gz", PageFormat.HOTPOTQA_ABSTRACTS, """
                {"id": "1", "url": "u", "title": "Milhouse Van Houten", "text": ["Milhouse Mussolini Van Houten is a character in The Simpsons.", " He was named after U.S. president Richard Nixon, whose middle name was Milhous."]}
                {"id": "2", "title": "Richard Nixon", "text": ["Richard Milhous Nixon was the 37th president of the United States."]}
                {"id": "3", "title": "Empty page", "text": []}
                """);
        try (PageStore pages = PageStore.open(store)) {
            assertThat(pages.size()).isEqualTo(2);
            assertThat(pages.metadata().format()).isEqualTo("hotpotqa-abstracts");
            Page p = pages.page("milhouse_van_houten").orElseThrow();
            assertThat(p.title()).isEqualTo("Milhouse Van Houten");
            // HotpotQA's own sentence split, not ours ("U.S. president" stays one sentence either way)
            assertThat(p.sentences()).containsExactly("Milhouse Mussolini Van Houten is a character in The Simpsons.",
                    "He was named after U.S. president Richard Nixon, whose middle name was Milhous.");
            assertThat(pages.page("Milhouse")).isEmpty();
            // "Similar": a title word first, then a word only in a page's opening sentences
            assertThat(pages.similarTitles("Milhouse", 5)).containsExactly("Milhouse Van Houten");
            assertThat(pages.similarTitles("Nixon", 5)).containsExactly("Richard Nixon", "Milhouse Van Houten");
            assertThat(pages.similarTitles("the of", 5)).isEmpty();
            var env = new WikiEnvironment(pages);
            assertThat(env.step("Search[Milhouse Van Houten]")).startsWith("Milhouse Mussolini Van Houten is a character");
            assertThat(env.step("Lookup[named after]")).isEqualTo("(Result 1 / 1) He was named after U.S. president"
                    + " Richard Nixon, whose middle name was Milhous.");
            assertThat(env.step("Search[Springfield]")).isEqualTo("Could not find Springfield. Similar: [].");
            assertThat(env.step("Search[Van Houten]")).isEqualTo("Could not find Van Houten. Similar: ['Milhouse Van Houten'].");
        }
    }

    @Test
    void feverWikiPagesAreUnescapedAndReadFromTheirLines() throws IOException {
        Path store = build("wiki-001.jsonl", PageFormat.FEVER, """
                {"id": "", "text": "", "lines": ""}
                {"id": "Soul_Food_-LRB-film-RRB-", "text": "Soul Food is a 1997 American comedy-drama film . It was released by Fox 2000 Pictures .", "lines": "0\\tSoul Food is a 1997 American comedy-drama film -LRB- directed by George Tillman -RRB- .\\tFox_2000_Pictures\\n1\\tIt was released by Fox 2000 Pictures .\\n2\\t"}
                """);
        try (PageStore pages = PageStore.open(store)) {
            Page p = pages.page("Soul Food (film)").orElseThrow();
            assertThat(p.title()).isEqualTo("Soul Food (film)");
            assertThat(p.sentences()).containsExactly(
                    "Soul Food is a 1997 American comedy-drama film ( directed by George Tillman ) .",
                    "It was released by Fox 2000 Pictures .");
            assertThat(pages.similarTitles("Soul Food", 5)).containsExactly("Soul Food (film)");
        }
    }

    @Test
    void kiltDropsTheRepeatedTitleSectionsAndBulletMarkers() throws IOException {
        Path store = build("kilt.jsonl", PageFormat.KILT, """
                {"_id": "1", "wikipedia_id": "1", "wikipedia_title": "High Plains (United States)", "text": ["High Plains (United States)\\n", "The High Plains are a subregion of the Great Plains. They rise from 1,800 to 7,000 ft.\\n", "Section::::Geography.\\n", "BULLET::::- Nebraska\\n"]}
                """);
        try (PageStore pages = PageStore.open(store)) {
            Page p = pages.page("High Plains (United States)").orElseThrow();
            assertThat(p.paragraphs()).containsExactly("The High Plains are a subregion of the Great Plains. They rise"
                    + " from 1,800 to 7,000 ft.", "Nebraska");
            assertThat(p.sentences()).containsExactly("The High Plains are a subregion of the Great Plains.",
                    "They rise from 1,800 to 7,000 ft.", "Nebraska");
        }
    }

    @Test
    void aLaterPageOfTheSameTitleReplacesTheEarlierAndDatasetParagraphsAreGrouped() throws IOException {
        Path store = build("pages.jsonl", PageFormat.JSONL, """
                {"title": "Ed Wood", "text": "An old text."}
                {"title": "ed_wood", "text": ["Edward Davis Wood Jr. was an American filmmaker.", "He directed films."]}
                """);
        try (PageStore pages = PageStore.open(store)) {
            assertThat(pages.size()).isEqualTo(1);
            assertThat(pages.page("Ed Wood").orElseThrow().paragraphs()).containsExactly(
                    "Edward Davis Wood Jr. was an American filmmaker.", "He directed films.");
        }
        List<Page> grouped = PageReader.group(List.of(new Document("1", "Ed Wood", "First paragraph."),
                new Document("2", "Scott Derrickson", "A director."), new Document("3", "ed wood", "Second paragraph."),
                new Document("4", "Ed Wood", "First paragraph."), new Document("5", "", "No title.")));
        assertThat(grouped).extracting(Page::title).containsExactly("Ed Wood", "Scott Derrickson");
        assertThat(grouped.getFirst().paragraphs()).containsExactly("First paragraph.", "Second paragraph.");
    }

    @Test
    void aCorruptRecordNamesItsFileAndLine() throws IOException {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(file, "{\"title\": \"A\", \"text\": [\"x.\"]}\n\n{\"title\": \"B\", \"text\": [\"y.\"\n");
        assertThatThrownBy(() -> PageReader.read(file, PageFormat.HOTPOTQA_ABSTRACTS, p -> { }))
                .hasMessageStartingWith(file + ":3: not a JSON object").hasMessageEndingWith("(check --format)");
        Files.writeString(file, "{\"title\": \"A\", \"text\": \"a string, not sentences\"}\n");
        assertThatThrownBy(() -> PageReader.read(file, PageFormat.HOTPOTQA_ABSTRACTS, p -> { }))
                .hasMessage(file + ":1: field \"text\" must be a list of sentences (check --format)");
        Files.writeString(file, "{\"id\": \"A\", \"text\": \"t\"}\n");
        assertThatThrownBy(() -> PageReader.read(file, PageFormat.FEVER, p -> { }))
                .hasMessageStartingWith(file + ":1: field \"lines\"");
        assertThatThrownBy(() -> PageReader.read(file, PageFormat.KILT, p -> { }))
                .hasMessageStartingWith(file + ":1: no \"wikipedia_title\" string field");
    }

    @Test
    void aDumpThatIsNotUtf8IsRefusedAtItsFileAndLine() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("wiki-pages"));
        Files.writeString(folder.resolve("wiki-001.jsonl"), "{\"id\": \"Caf\u00e9\", \"lines\": \"0\\tA caf\u00e9.\"}\n");
        Path latin1 = folder.resolve("wiki-002.jsonl");
        Files.write(latin1, ("{\"id\": \"A\", \"lines\": \"0\\tFine.\"}\n{\"id\": \"B\", \"lines\": \"0\\tCaf\u00e9.\"}\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        List<Page> read = new ArrayList<>();
        assertThatThrownBy(() -> PageReader.read(folder, PageFormat.FEVER, read::add))
                .isInstanceOf(PageReader.PageFormatException.class)
                .hasMessage(latin1 + ":2: not UTF-8 text: byte 0xE9 at character 29 of the line; convert the file to UTF-8"
                        + " (e.g. iconv -f latin1 -t utf-8)");
        // the UTF-8 file before it read as it is, é and all (the bad file's lines are decoded ahead of their pages)
        assertThat(read).extracting(Page::title).containsExactly("Caf\u00e9");
    }

    /** A build that failed half-way is abandoned: the folder holds no page store, not the pages read before. */
    @Test
    void anAbandonedBuildLeavesNoPageStoreNotEvenOverAnOldOne() throws IOException {
        Path store = build("abstracts.jsonl", PageFormat.HOTPOTQA_ABSTRACTS,
                "{\"title\": \"Old page\", \"text\": [\"It was built well.\"]}\n");
        try (PageStore pages = PageStore.open(store)) {
            assertThat(pages.size()).isEqualTo(1);
        }
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"title\": \"A\", \"text\": [\"x.\"]}\n{\"title\": \"B\", \"text\": [\"y.\"\n");
        try (PageStoreBuilder b = PageStoreBuilder.create(store, PageFormat.HOTPOTQA_ABSTRACTS, bad, null)) {
            assertThatThrownBy(() -> PageReader.read(bad, PageFormat.HOTPOTQA_ABSTRACTS, b::add))
                    .hasMessageStartingWith(bad + ":2: not a JSON object");
            assertThat(b.count()).isEqualTo(1);
            b.abandon();
        }
        assertThat(store.resolve(PageStoreMetadata.FILE)).doesNotExist();
        assertThatThrownBy(() -> PageStore.open(store)).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("not a page store (no veracity-pages.json)");
        // the next build into the folder works
        try (PageStoreBuilder b = PageStoreBuilder.create(store, PageFormat.JSONL, bad, null)) {
            b.add(PageStore.page("New page", List.of("Built after the failure.")));
        }
        try (PageStore pages = PageStore.open(store)) {
            assertThat(pages.page("New page")).isPresent();
            assertThat(pages.page("Old page")).isEmpty();
        }
    }

    @Test
    void aMissingFolderOrARetrievalIndexIsNoPageStore() throws IOException {
        assertThatThrownBy(() -> PageStore.open(dir.resolve("nowhere"))).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("no page store here: build one with ./veracity index --pages");
        Files.createDirectories(dir.resolve("index"));
        Files.writeString(dir.resolve("index/veracity-index.json"), "{}");
        assertThatThrownBy(() -> PageStore.open(dir.resolve("index"))).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("not a page store (no veracity-pages.json)");
    }

    /**
     * Twenty thousand pages open within a second and serve a thousand searches a second, counted in CPU time (the
     * figures on the wall clock are {@code ./veracity bench pages}'s): opening reads the index, not the pages, and a
     * search is a lookup or a small title search, not a scan.
     */
    @Test
    void opensInUnderASecondAndServesAThousandSearchesPerSecondOfCpu() throws IOException {
        Path store = dir.resolve("big");
        int n = 20_000;
        try (PageStoreBuilder b = PageStoreBuilder.create(store, PageFormat.JSONL, dir.resolve("generated"), null)) {
            for (int i = 0; i < n; i++) {
                b.add(PageStore.page("Page " + i + " of " + word(i), List.of("Page " + i + " is about " + word(i * 7)
                        + " and " + word(i * 13) + ". It has a second sentence about " + word(i * 31) + ".")));
            }
        }
        try (PageStore pages = CpuBudget.call(Duration.ofSeconds(1), "opening 20,000 pages", () -> open(store))) {
            assertThat(pages.size()).isEqualTo(n);
            for (int i = 0; i < 200; i++) { // warm-up
                pages.page("Page " + i + " of " + word(i));
                pages.similarTitles(word(i) + " " + word(i + 1), 5);
            }
            int searches = 2_000;
            int found = CpuBudget.call(Duration.ofSeconds(2), "2,000 searches", () -> {
                int hits = 0;
                for (int i = 0; i < searches; i++) {
                    // what Search does: an exact lookup, and on a miss the similar titles
                    if (i % 2 == 0 && pages.page("Page " + i + " of " + word(i)).isPresent()) {
                        hits++;
                    } else {
                        hits += pages.similarTitles(word(i) + " " + word(i * 3), 5).isEmpty() ? 0 : 1;
                    }
                }
                return hits;
            });
            assertThat(found).isGreaterThan(searches / 2);
        }
    }

    private static PageStore open(Path store) {
        try {
            return PageStore.open(store);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final List<String> WORDS = new ArrayList<>(List.of("river", "mountain", "album", "film", "singer",
            "novel", "city", "bridge", "battle", "church", "island", "player", "band", "station", "museum", "school",
            "ship", "railway", "painter", "poet", "village", "castle", "lake", "opera", "team", "league", "valley"));

    private static String word(int i) {
        return WORDS.get(Math.floorMod(i, WORDS.size())) + Math.floorMod(i, 97);
    }
}
