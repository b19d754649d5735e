package dev.veracity.text;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Input text that must be UTF-8 (datasets, corpora, page dumps): a byte sequence that is not UTF-8 (a Latin-1
 * {@code é}, a file cut inside a character) fails with its line instead of becoming U+FFFD, which would change
 * questions, gold answers and indexed passages silently. Lines are counted as {@link java.io.BufferedReader#readLine()}
 * counts them ({@code \n}, {@code \r} or {@code \r\n} ends one), so the line named is the line the record readers
 * report. Wrap it in a {@link java.io.BufferedReader} for lines.
 *
 * <pre>{@code
 * try (BufferedReader r = new BufferedReader(new StrictUtf8Reader(in), 1 << 16)) { ... }
 * catch (StrictUtf8Reader.NotUtf8Exception e) { ... file + ":" + e.line() + ": " + e.getMessage() ... }
 * }</pre>
 */
public final class StrictUtf8Reader extends Reader {

    /** Bytes that are not UTF-8, at a 1-based line and character of the decoded text. */
    public static final class NotUtf8Exception extends IOException {
        private final long line;

        NotUtf8Exception(long line, long character, String bytes) {
            super("not UTF-8 text: " + bytes + " at character " + character + " of the line; convert the file to UTF-8"
                    + " (e.g. iconv -f latin1 -t utf-8)");
            this.line = line;
        }

        /** The 1-based line the bytes are on. */
        public long line() {
            return line;
        }
    }

    private final InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteBuffer bytes = ByteBuffer.allocate(1 << 16).flip();
    /** The second half of a surrogate pair decoded for a caller that asked for one char. */
    private final CharBuffer spare = CharBuffer.allocate(2).flip();
    private boolean eof;
    private boolean flushed;
    private long line = 1;
    /** Chars handed out so far; the index of the char that starts the current line; the index of the last \r. */
    private long handedOut;
    private long lineStart;
    private long crAt = -2;

    /** Decodes {@code in}, which it closes when closed. */
    public StrictUtf8Reader(InputStream in) {
        this.in = in;
    }

    @Override
    public int read(char[] buf, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (spare.hasRemaining()) {
            buf[off] = spare.get();
            count(buf, off, off + 1);
            return 1;
        }
        CharBuffer out = CharBuffer.wrap(buf, off, len);
        while (!flushed) {
            CoderResult r = decoder.decode(bytes, out, eof);
            int produced = out.position() - off;
            count(buf, off, out.position());
            if (r.isError()) {
                throw notUtf8(r.length());
            }
            if (produced > 0) {
                return produced;
            }
            if (r.isOverflow()) { // one char asked for, a surrogate pair next: decode both, hand out one
                spare.clear();
                CoderResult pair = decoder.decode(bytes, spare, eof);
                spare.flip();
                if (pair.isError()) {
                    throw notUtf8(pair.length());
                }
                return read(buf, off, len);
            }
            if (eof) {
                decoder.flush(out); // UTF-8 keeps no state to flush: nothing is produced
                flushed = true;
            } else {
                fill();
            }
        }
        return -1;
    }

    private void fill() throws IOException {
        bytes.compact();
        int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
        if (n < 0) {
            eof = true;
        } else {
            bytes.position(bytes.position() + n);
        }
        bytes.flip();
    }

    private NotUtf8Exception notUtf8(int length) {
        StringBuilder shown = new StringBuilder(eof && bytes.remaining() == length ? "the file ends inside a character, "
                : "");
        shown.append(length == 1 ? "byte" : "bytes");
        for (int i = 0; i < length && bytes.position() + i < bytes.limit(); i++) {
            shown.append(String.format(" 0x%02X", bytes.get(bytes.position() + i) & 0xFF));
        }
        return new NotUtf8Exception(line, handedOut - lineStart + 1, shown.toString());
    }

    /**
     * Follows the line over the chars handed out. Only line ends are looked at (the column is where the line started,
     * counted back from the chars handed out): most chars cost one comparison.
     */
    private void count(char[] buf, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = buf[i];
            if (c <= '\r' && (c == '\n' || c == '\r')) {
                long at = handedOut + (i - from);
                if (c == '\r' || at != crAt + 1) { // the \n of \r\n ends no second line
                    line++;
                }
                if (c == '\r') {
                    crAt = at;
                }
                lineStart = at + 1;
            }
        }
        handedOut += to - from;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
