package dev.veracity.sim.reader;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The readers' word sets: {@link Text#words}'s own scan gives what the word pattern's matcher gave. */
class TextTest {

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

    /** The matcher's word set, as {@link Text#words} computed it before it scanned on its own. */
    private static Set<String> byPattern(String text) {
        Set<String> out = new HashSet<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            String w = m.group().toLowerCase(Locale.ROOT);
            if (!Text.STOP.contains(w)) {
                out.add(Text.stem(w));
            }
        }
        return out;
    }

    @Test
    void theScanFindsTheWordsThePatternFinds() {
        String[] fixed = {"", " ", "The Eiffel Tower opened in 1889, 324 m tall.", "naïve café — São Paulo's 東京 tower",
            "Ⅻ ½ x² ٣٤ ७ ＡＢＣ", "e\u0301cole d\u0301 a\u0308", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 emoji\uD83D", "\uDC00lone low",
            "it's  a--b_c.d/e", "<doc>[1] Title: x</doc>", "ǅemal ǈ ǋ", "ᵃᵇ ʰ ˢ"};
        for (String t : fixed) {
            assertThat(Text.words(t)).as(t).isEqualTo(byPattern(t));
        }
        SplittableRandom random = new SplittableRandom(11);
        int[] pool = {'a', 'Z', '7', ' ', ',', '\'', '-', 0xE9, 0x301, 0x2160, 0xBD, 0xB2, 0x4E1C, 0x663, 0xFF21, 0x1D518,
            0x1F600, 0xD83D, 0xDC00, 0x2019, 0x1C5, 0x2B0, '\n', '\t'};
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int n = random.nextInt(30);
            for (int j = 0; j < n; j++) {
                b.appendCodePoint(pool[random.nextInt(pool.length)]);
            }
            String t = b.toString();
            assertThat(Text.words(t)).as(t).isEqualTo(byPattern(t));
        }
    }
}
