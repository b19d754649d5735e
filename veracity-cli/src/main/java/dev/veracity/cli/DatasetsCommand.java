package dev.veracity.cli;

import dev.veracity.eval.data.DatasetCache;
import dev.veracity.eval.data.DatasetFetcher;
import dev.veracity.eval.data.DatasetSpec;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.data.Download;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./veracity datasets list|fetch}: the registered benchmarks, their official files and what is here. */
@Command(name = "datasets", mixinStandardHelpOptions = true,
        description = {"The registered datasets, their official files (URL, SHA-256) and which are present.",
                "Files are kept in $VERACITY_DATA/<dataset>/ (default ~/.cache/veracity/datasets/<dataset>/); the"
                        + " project's shared/data samples beside a checkout count as present."},
        subcommands = {DatasetsCommand.ListCommand.class, DatasetsCommand.FetchCommand.class})
final class DatasetsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return new ListCommand().print(new PrintWriter(System.out, true), DatasetCache.fromEnvironment());
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every registered dataset, its files and whether each is here.")
    static final class ListCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            return print(new PrintWriter(System.out, true), DatasetCache.fromEnvironment());
        }

        int print(PrintWriter w, DatasetCache cache) {
            w.println("Datasets (cache " + cache.root() + ", " + DatasetCache.ENV + " moves it):");
            for (DatasetSpec d : Datasets.specs()) {
                w.println(d.name() + (d.aliases().isEmpty() ? "" : " (" + String.join(", ", d.aliases()) + ")") + "  "
                        + d.description() + "; metrics " + String.join(", ", d.metrics()));
                if (d.downloads().isEmpty()) {
                    w.println("  no official file declared");
                }
                for (Download f : d.downloads()) {
                    String where = cache.find(d, f).map(p -> "present: " + p).orElse("missing");
                    w.println("  " + f.file() + "  [" + where + "]  " + (f.url() != null ? f.url() : "from " + f.page())
                            + "  " + f.checksumText() + (f.note().isEmpty() ? "" : "  (" + f.note() + ")"));
                }
            }
            w.flush();
            return 0;
        }
    }

    @Command(name = "fetch", mixinStandardHelpOptions = true,
            description = "Download a dataset's official files into the cache, checking each against its SHA-256 where"
                    + " it is known (a mismatch keeps nothing).")
    static final class FetchCommand implements Callable<Integer> {
        @Parameters(arity = "1", paramLabel = "NAME", description = "A registered dataset.")
        String name;

        @Parameters(index = "1", arity = "0..1", paramLabel = "FILE", description = "Only this one of its files.")
        String only;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            DatasetSpec d = Datasets.spec(name);
            List<Download> files = d.downloads().stream().filter(f -> only == null || f.file().equals(only)).toList();
            if (files.isEmpty()) {
                throw new IllegalArgumentException(d.name() + (only == null ? " declares no official file"
                        : " has no file " + only + "; its files: " + String.join(", ", d.downloads().stream().map(Download::file).toList())));
            }
            if (only == null && files.stream().allMatch(f -> f.url() == null)) {
                Download f = files.getFirst();
                throw new IllegalArgumentException(d.name() + ": no direct download; get " + f.file() + " from " + f.page()
                        + " (" + f.note() + ") and put it in " + DatasetCache.fromEnvironment().target(d, f).getParent());
            }
            DatasetFetcher fetcher = new DatasetFetcher(DatasetCache.fromEnvironment());
            PrintWriter w = new PrintWriter(System.out, true);
            for (Download f : files) {
                if (f.url() == null && only == null) {
                    w.println(f.file() + ": no direct download, from " + f.page() + " (" + f.note() + ")");
                    continue;
                }
                DatasetFetcher.Fetched got = fetcher.fetch(d, f);
                w.println(f.file() + ": " + (got.alreadyPresent() ? "already present" : "fetched " + got.bytes() + " bytes")
                        + " at " + got.file() + ", sha256 " + got.sha256() + (got.verified() ? " (verified)"
                        : " (no checksum declared: not verified)"));
            }
            w.flush();
            return 0;
        }
    }
}
