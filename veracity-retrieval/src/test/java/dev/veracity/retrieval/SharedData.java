package dev.veracity.retrieval;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds {@code shared/data} by walking up from the working directory (the module dir under Maven). */
public final class SharedData {

    private SharedData() {
    }

    public static Optional<Path> file(String relative) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve("shared/data").resolve(relative);
            if (Files.isRegularFile(f)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
