package dev.veracity.eval.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * Downloads a benchmark's official file into the {@link DatasetCache}: streamed to a temporary file beside the
 * target, its SHA-256 computed on the way and compared with the declared one, then moved into place. A checksum
 * that differs, an HTTP error or a network failure leave nothing behind and end in one line.
 */
public final class DatasetFetcher {

    /** What a fetch did. */
    public record Fetched(Path file, long bytes, String sha256, boolean verified, boolean alreadyPresent) {
    }

    private final HttpClient http;
    private final DatasetCache cache;

    public DatasetFetcher(DatasetCache cache) {
        this(cache, HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(20)).build());
    }

    DatasetFetcher(DatasetCache cache, HttpClient http) {
        this.cache = cache;
        this.http = http;
    }

    /**
     * Fetches the file of the dataset. A file already in the cache with the declared checksum is kept as it is;
     * one without a declared checksum is kept too (there is nothing to compare it with).
     *
     * @throws IllegalArgumentException one line: no direct URL (with the page), HTTP status, network failure,
     *                                  checksum mismatch
     */
    public Fetched fetch(DatasetSpec dataset, Download file) throws IOException {
        if (file.url() == null) {
            throw new IllegalArgumentException(dataset.name() + ": " + file.file() + " has no direct download; get it from "
                    + file.page() + " (" + file.note() + ") and put it at " + cache.target(dataset, file));
        }
        Path target = cache.target(dataset, file);
        if (Files.isRegularFile(target)) {
            String have = sha256(target);
            if (file.sha256() == null || file.sha256().equals(have)) {
                return new Fetched(target, Files.size(target), have, file.sha256() != null, true);
            }
        }
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), "." + file.file(), ".part");
        try {
            HttpResponse<InputStream> r;
            try {
                r = http.send(HttpRequest.newBuilder(URI.create(file.url())).timeout(Duration.ofMinutes(30)).GET().build(),
                        HttpResponse.BodyHandlers.ofInputStream());
            } catch (ConnectException | UnknownHostException | HttpConnectTimeoutException e) {
                throw new IllegalArgumentException("cannot reach " + URI.create(file.url()).getHost() + " to fetch "
                        + file.file() + " (" + describe(e) + "); no network here? download " + file.url() + " and put it at "
                        + target);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while fetching " + file.url(), e);
            }
            MessageDigest sha = digest();
            long bytes;
            try (InputStream body = r.body(); InputStream in = new DigestInputStream(body, sha);
                 OutputStream out = Files.newOutputStream(tmp)) {
                if (r.statusCode() != 200) {
                    throw new IllegalArgumentException("fetching " + file.url() + " failed: HTTP " + r.statusCode()
                            + " (nothing was kept)");
                }
                bytes = in.transferTo(out);
            } catch (IOException e) {
                throw new IllegalArgumentException("fetching " + file.url() + " broke off (" + describe(e)
                        + "); nothing was kept, run the fetch again");
            }
            String got = HexFormat.of().formatHex(sha.digest());
            if (file.sha256() != null && !file.sha256().equals(got)) {
                throw new IllegalArgumentException(file.file() + " from " + file.url() + " has sha256 " + got
                        + ", expected " + file.sha256() + "; the file was not kept");
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new Fetched(target, bytes, got, file.sha256() != null, false);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** SHA-256 of a file, lower-case hex. */
    public static String sha256(Path file) throws IOException {
        MessageDigest sha = digest();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static String describe(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
