package dev.veracity.retrieval.opensearch;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An OpenSearch index named as {@code opensearch://host:9200/NAME} (HTTP) or {@code opensearchs://host:9200/NAME}
 * (HTTPS), with credentials from the environment: {@value #USER} and {@value #PASSWORD} (basic authentication), or
 * {@value #API_KEY} (sent as {@code Authorization: ApiKey ...}). Credentials never appear in the location, so runs
 * can record it.
 *
 * @param https    whether to use TLS
 * @param host     the host name
 * @param port     the HTTP port (9200 when not given)
 * @param index    the index name
 * @param user     the basic-auth user, or null
 * @param password the basic-auth password, or null
 * @param apiKey   the API key, or null
 */
public record OpenSearchLocation(boolean https, String host, int port, String index, String user, String password,
                                 String apiKey) {

    public static final String USER = "VERACITY_OPENSEARCH_USER";
    public static final String PASSWORD = "VERACITY_OPENSEARCH_PASSWORD";
    public static final String API_KEY = "VERACITY_OPENSEARCH_API_KEY";

    /** OpenSearch's rules for index names, in short: lower case, no path or wildcard characters, not starting with _-+. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,254}");

    /** Whether a {@code --index} value names an OpenSearch index rather than a folder. */
    public static boolean isLocation(String value) {
        return value != null && (value.startsWith("opensearch://") || value.startsWith("opensearchs://"));
    }

    /** Parses a location, credentials from the process environment; a malformed one is an {@link IllegalArgumentException}. */
    public static OpenSearchLocation parse(String value) {
        return parse(value, System.getenv());
    }

    static OpenSearchLocation parse(String value, Map<String, String> env) {
        String usage = ": write opensearch://HOST:PORT/INDEX (or opensearchs:// for HTTPS)";
        if (!isLocation(value)) {
            throw new IllegalArgumentException("'" + value + "' is not an OpenSearch index" + usage);
        }
        URI uri;
        try {
            uri = URI.create(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + value + "' is not a valid URL" + usage);
        }
        if (uri.getUserInfo() != null) {
            throw new IllegalArgumentException("'" + value + "' holds credentials: pass them in " + USER + "/" + PASSWORD
                    + " or " + API_KEY + " instead");
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        String index = path.startsWith("/") ? path.substring(1) : path;
        if (uri.getHost() == null || !NAME.matcher(index).matches()) {
            throw new IllegalArgumentException("'" + value + "' names no host or no valid index (lower case letters,"
                    + " digits, '.', '_', '-')" + usage);
        }
        String user = blankToNull(env.get(USER));
        String password = blankToNull(env.get(PASSWORD));
        if ((user == null) != (password == null)) {
            throw new IllegalArgumentException("set both " + USER + " and " + PASSWORD + ", or neither");
        }
        return new OpenSearchLocation(uri.getScheme().equals("opensearchs"), uri.getHost(),
                uri.getPort() < 0 ? 9200 : uri.getPort(), index, user, password, blankToNull(env.get(API_KEY)));
    }

    /** The cluster's base URL ({@code http://host:port}). */
    public String baseUrl() {
        return (https ? "https" : "http") + "://" + host + ":" + port;
    }

    /** The location as given, without credentials: what a run records. */
    @Override
    public String toString() {
        return (https ? "opensearchs" : "opensearch") + "://" + host + ":" + port + "/" + index;
    }

    Optional<String> authorization() {
        if (apiKey != null) {
            return Optional.of("ApiKey " + apiKey);
        }
        if (user != null) {
            return Optional.of("Basic " + java.util.Base64.getEncoder().encodeToString(
                    (user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        return Optional.empty();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
