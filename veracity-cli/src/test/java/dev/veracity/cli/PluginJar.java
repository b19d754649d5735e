package dev.veracity.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A real plug-in jar made by a test: Java sources compiled with the JDK's compiler against the test's class path
 * (Veracity's modules), their classes and {@code META-INF/services} files packed in a jar, as a user's build would.
 */
final class PluginJar {

    private PluginJar() {
    }

    /**
     * @param jar      the jar to write
     * @param sources  class name to its source
     * @param services service interface to the implementations it lists
     */
    static Path build(Path jar, Map<String, String> sources, Map<String, List<String>> services) throws IOException {
        Path work = Files.createTempDirectory(jar.getParent(), "plugin-src");
        Path classes = Files.createDirectories(work.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                "--release", "21", "-proc:none"));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path src = work.resolve("src").resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(src.getParent());
            Files.writeString(src, e.getValue());
            args.add(src.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream diagnostics = new java.io.ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
        if (rc != 0) {
            throw new IllegalStateException("the test plug-in does not compile:\n" + diagnostics);
        }
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                    j.write(Files.readAllBytes(f));
                    j.closeEntry();
                }
            }
            for (Map.Entry<String, List<String>> s : services.entrySet()) {
                j.putNextEntry(new JarEntry("META-INF/services/" + s.getKey()));
                j.write((String.join("\n", s.getValue()) + "\n").getBytes(StandardCharsets.UTF_8));
                j.closeEntry();
            }
        }
        return jar;
    }
}
