package dev.veracity.eval.data;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** The fixtures in test resources (the shared real samples are {@link dev.veracity.testing.Shared}'s). */
final class TestFiles {

    private TestFiles() {
    }

    static Path fixture(String name) {
        URL url = TestFiles.class.getResource(name);
        if (url == null) {
            throw new IllegalStateException("missing test resource " + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
