package dev.veracity.eval.data;

import java.util.Locale;
import java.util.Objects;

/**
 * Where a benchmark's official file comes from, declared with its dataset in {@link Datasets}.
 *
 * @param file   the file's official name, kept in the cache under it (the loaders tell formats by name)
 * @param url    a direct download of exactly that file, or null when the benchmark ships it only behind a page
 *               (Google Drive, a form, a tarball to unpack)
 * @param sha256 the file's SHA-256 (lower-case hex), or null when it could not be computed here: then it is
 *               reported as unknown, never invented
 * @param page   the benchmark's download page, for files without a direct URL and for the licence
 * @param note   one line: which split, and anything to do after the download
 * @param questions the file's question count where the release or a paper states it, else null: without a checksum
 *               it is what tells whether a file can be the one a paper used
 */
public record Download(String file, String url, String sha256, String page, String note, Integer questions) {

    /** A file whose question count the registry does not state. */
    public Download(String file, String url, String sha256, String page, String note) {
        this(file, url, sha256, page, note, null);
    }

    public Download {
        if (questions != null && questions < 1) {
            throw new IllegalArgumentException("questions of " + file + " must be >= 1, was " + questions);
        }
        Objects.requireNonNull(file, "file");
        if (file.contains("/") || file.contains("\\") || file.startsWith(".")) {
            throw new IllegalArgumentException("a download's file is a plain name, was " + file);
        }
        if (sha256 != null && !sha256.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("sha256 of " + file + " is not 64 lower-case hex digits");
        }
        sha256 = sha256 == null ? null : sha256.toLowerCase(Locale.ROOT);
        note = Objects.requireNonNullElse(note, "");
    }

    /** The same file with its question count. */
    public Download withQuestions(int n) {
        return new Download(file, url, sha256, page, note, n);
    }

    /** "sha256 HEX" or "sha256 unknown". */
    public String checksumText() {
        return "sha256 " + (sha256 == null ? "unknown" : sha256);
    }
}
