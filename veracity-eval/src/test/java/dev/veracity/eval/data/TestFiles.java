package dev.veracity.eval.data;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Where test inputs are: the fixtures in test resources and the shared real samples beside the repository. */
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

    /**
     * The shared sample folder ({@code shared/data} beside the clone: {@code ../../shared/data} from the module, or
     * {@code ../shared/data} from the reactor root), or the {@code veracity.shared.data} system property; null if
     * none exists.
     */
    static Path sharedData() {
        String prop = System.getProperty("veracity.shared.data");
        List<Path> candidates = prop != null ? List.of(Path.of(prop))
                : List.of(Path.of("../../shared/data"), Path.of("../shared/data"));
        for (Path p : candidates) {
            if (Files.isDirectory(p)) {
                return p.toAbsolutePath().normalize();
            }
        }
        return null;
    }
}
