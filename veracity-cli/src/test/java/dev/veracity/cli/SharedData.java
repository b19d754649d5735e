package dev.veracity.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds the benchmark samples in ../shared/data beside the repository (CI clones with shared/ beside it). */
final class SharedData {

    private SharedData() {
    }

    static Optional<Path> file(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            for (Path candidate : new Path[] {dir.resolve("shared/data").resolve(relative), dir.resolve("../shared/data").resolve(relative)}) {
                if (Files.isRegularFile(candidate)) {
                    return Optional.of(candidate.normalize());
                }
            }
        }
        return Optional.empty();
    }
}
