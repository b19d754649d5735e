package dev.veracity.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The decoder of user files: UTF-8 read exactly as the JDK reads it, anything else refused at its line. */
class StrictUtf8ReaderTest {

    private static List<String> lines(byte[] bytes, int bufferSize) throws IOException {
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new StrictUtf8Reader(new ByteArrayInputStream(bytes)), bufferSize)) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                out.add(l);
            }
        }
        return out;
    }

    private static List<String> jdkLines(String text) throws IOException {
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new StringReader(text))) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                out.add(l);
            }
        }
        return out;
    }

    @Test
    void handsOutSurrogatePairsOneCharAtATime() throws IOException {
        byte[] bytes = "a\ud83d\ude00b\n\u00e9".getBytes(StandardCharsets.UTF_8);
        try (Reader r = new StrictUtf8Reader(new ByteArrayInputStream(bytes))) {
            StringBuilder read = new StringBuilder();
            for (int c; (c = r.read()) != -1; ) {
                read.append((char) c);
            }
            assertThat(read.toString()).isEqualTo("a\ud83d\ude00b\n\u00e9");
        }
        try (Reader r = new StrictUtf8Reader(new ByteArrayInputStream(bytes))) {
            char[] buf = new char[64];
            int n = r.read(buf, 0, buf.length);
            assertThat(new String(buf, 0, n)).isEqualTo("a\ud83d\ude00b\n\u00e9");
            assertThat(r.read(buf, 0, buf.length)).isEqualTo(-1);
            assertThat(r.read()).isEqualTo(-1);
        }
    }

    /**
     * Random text of every width (ASCII, Latin, CJK, emoji) and every line end, over 64 KB so that characters straddle
     * the reader's buffer: read line by line it gives the JDK's lines; one byte made invalid fails at its line.
     */
    @Test
    void readsValidTextAsTheJdkAndNamesTheLineOfABadByte() throws IOException {
        String[] pieces = {"a", "Z", " ", "\u00e9", "\u00df", "\u4e2d", "\u6587", "\ud83d\ude00", "\ud801\udc37", "\"", "\t",
                "\n", "\r\n", "\r"};
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            StringBuilder text = new StringBuilder();
            while (text.length() < 70_000) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            assertThat(lines(bytes, 1 + random.nextInt(9000))).isEqualTo(jdkLines(text.toString()));
            // a stray continuation byte where a character starts: the line it falls on
            int at = random.nextInt(bytes.length);
            while ((bytes[at] & 0xC0) == 0x80) {
                at--;
            }
            byte[] bad = bytes.clone();
            bad[at] = (byte) 0x80;
            String before = new String(bytes, 0, at, StandardCharsets.UTF_8);
            long expectedLine = jdkLines(before + "x").size();
            assertThatThrownBy(() -> lines(bad, 8192)).isInstanceOf(StrictUtf8Reader.NotUtf8Exception.class)
                    .hasMessageStartingWith("not UTF-8 text: byte 0x80 at character")
                    .satisfies(e -> assertThat(((StrictUtf8Reader.NotUtf8Exception) e).line()).isEqualTo(expectedLine));
        }
    }

    @Test
    void latin1AndCutCharactersAreRefusedNeverReplaced() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes("line one\r\nline two\rcaf".getBytes(StandardCharsets.UTF_8));
        b.write(0xE9);
        b.writeBytes(" au lait\n".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> lines(b.toByteArray(), 16)).hasMessage("not UTF-8 text: byte 0xE9 at character 4 of the"
                + " line; convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8)")
                .satisfies(e -> assertThat(((StrictUtf8Reader.NotUtf8Exception) e).line()).isEqualTo(3));
        byte[] cut = "ok\n\u4e2d".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> lines(java.util.Arrays.copyOf(cut, cut.length - 1), 16))
                .hasMessageStartingWith("not UTF-8 text: the file ends inside a character, bytes 0xE4 0xB8");
    }
}
