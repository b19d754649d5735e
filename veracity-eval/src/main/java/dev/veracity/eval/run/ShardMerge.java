package dev.veracity.eval.run;

import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.metrics.Metrics;
import dev.veracity.eval.report.RunDir;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.RunConfiguration;
import dev.veracity.eval.results.Summary;
import dev.veracity.method.Truncation;
import dev.veracity.trace.TraceStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * Joins the run folders of {@code eval --shard I/N} into one run folder ({@code veracity merge}) whose results and
 * summary are those of the unsharded run at the same settings: every answered question's line and every unanswered
 * question's failure record, in the dataset's order (their {@code position}s are the whole run's); {@code summary.json}
 * folded afresh from those lines by the runner's own fold ({@link EvalRunner#fold}: means and rates recomputed, never
 * combined from the shards' means); {@code run.json} the shards' configuration without the shard (a merge of every
 * shard is the whole run: {@code eval} into it resumes it as the unsharded run); the shards' traces in one
 * {@code traces.db}. The shards are read with {@link RunDir} and the folder is written with the run's own writers
 * ({@link ResultsFile}, {@link ResultsJson}, {@link TraceStore}).
 *
 * <p>Everything is checked before anything is written, each refusal one line: a folder that is not a shard, shards of
 * different configurations (the shard field excepted) or limits, a shard given twice or a question in a folder whose
 * shard does not hold it (overlap), an unfinished shard (unless allowed), missing shards (unless allowed), and an
 * {@code out} that exists and is not empty.
 *
 * <p>What cannot equal the unsharded run's: {@code trace_run} (each line keeps its shard's; the summary names the
 * shard that finished last, as a resumed run names its last invocation), {@code started}/{@code finished} (the first
 * shard's start, the last one's end) and {@code wall_seconds} (the span between them), {@code errors} (the shards'
 * sum), {@code endpoints} (each server's counts summed), {@code concurrency_limit} (lowest and highest over the
 * shards, their drops summed, the last one's settled limit), and the per-question wall and model milliseconds, which were measured on each shard's machine.
 */
public final class ShardMerge {

    /**
     * What to allow beyond a complete set of finished shards.
     *
     * @param missing    merge a subset of the shards (the merged run records the shards it covers)
     * @param unfinished merge a shard whose eval has not finished (no summary, or one older than its results)
     * @param sideFiles  the files the method writes beside its answers (its training records), joined too
     */
    public record Allow(boolean missing, boolean unfinished, List<String> sideFiles) {

        public Allow {
            sideFiles = sideFiles == null ? List.of() : List.copyOf(sideFiles);
        }

        /** Complete, finished shards only. */
        public static Allow none() {
            return new Allow(false, false, List.of());
        }
    }

    /**
     * What a merge wrote.
     *
     * @param shard    the shards it covers ({@link Shard#whole()} when every one)
     * @param answered the answered questions
     * @param failed   the questions whose last record is a failure
     * @param traces   the traced calls copied
     * @param summary  the merged summary
     */
    public record Result(Shard shard, long answered, long failed, long traces, Summary summary) {
    }

    /** A shard folder, read and checked. */
    private record Part(Path dir, RunConfiguration config, Shard shard, RunDir run) {
    }

    private ShardMerge() {
    }

    /** Checks the shards and writes their merge into {@code out}; throws {@link IllegalArgumentException} on a refusal. */
    public static Result merge(List<Path> dirs, Path out, Allow allow) {
        List<RunLock> shardLocks = new ArrayList<>();
        try {
            // no eval resumes into a shard while it is read (a folder that is no run is refused by check, unlocked)
            for (Path dir : dirs.stream().map(d -> d.toAbsolutePath().normalize()).distinct().toList()) {
                if (Files.isRegularFile(dir.resolve(RunConfig.FILE))) {
                    shardLocks.add(RunLock.acquire(dir));
                }
            }
            return write(check(dirs, out, allow), out, allow);
        } finally {
            shardLocks.forEach(RunLock::close);
        }
    }

    /**
     * Writes the merge; {@code run.json} last, so that a merge that fails midway never leaves a folder {@code eval}
     * would take for a run to resume.
     */
    private static Result write(List<Part> parts, Path out, Allow allow) {
        Shard covered = parts.stream().map(Part::shard).reduce(Shard::union).orElseThrow();
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + out + ": " + e.getMessage(), e);
        }
        try (RunLock lock = RunLock.acquire(out)) { // no eval resumes into it while it is written
            try {
                RunConfiguration config = parts.getFirst().config().withSchemaVersion(null)
                        .withShard(covered.whole() ? null : covered.toString());
                long failed;
                Result result;
                try (ResultsFile results = ResultsFile.open(out.resolve("results.jsonl"))) {
                    writeLines(parts, results);
                    failed = results.failures().size();
                    Summary summary = summary(parts, config, results);
                    ResultsJson.write(out.resolve("summary.json"), summary);
                    long traces = mergeTraces(parts, out);
                    joinSideFiles(parts, out, allow.sideFiles());
                    result = new Result(covered, summary.n(), failed, traces, summary);
                }
                ResultsJson.write(out.resolve(RunConfig.FILE), config);
                return result;
            } catch (RuntimeException | Error e) {
                // checked empty (or absent) before and locked since: all it holds is this merge's, torn
                clear(out);
                throw e;
            }
        }
    }

    /** Just after the file's last line end: its size when it ends with one, else where its torn last line begins. */
    private static long endOfLastLine(FileChannel r) throws IOException {
        ByteBuffer block = ByteBuffer.allocate(8192);
        for (long to = r.size(); to > 0; ) {
            long from = Math.max(0, to - block.capacity());
            block.clear().limit((int) (to - from));
            while (block.hasRemaining() && r.read(block, from + block.position()) >= 0) {
                // read the whole block
            }
            for (int i = (int) (to - from) - 1; i >= 0; i--) {
                if (block.get(i) == '\n') {
                    return from + i + 1;
                }
            }
            to = from;
        }
        return 0;
    }

    /** Deletes what a failed merge wrote into {@code out} (and {@code out}), best effort. */
    private static void clear(Path out) {
        if (!Files.isDirectory(out)) {
            return;
        }
        try (var walk = Files.walk(out)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: the error that stopped the merge is the one to report
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // as above
        }
    }

    /** Every refusal, before anything is written. */
    private static List<Part> check(List<Path> dirs, Path out, Allow allow) {
        if (dirs.isEmpty()) {
            throw new IllegalArgumentException("merge needs the shards' run folders: veracity merge DIR... --out DIR");
        }
        if (Files.exists(out)) {
            boolean empty;
            try (var entries = Files.isDirectory(out) ? Files.list(out) : null) {
                empty = entries != null && entries.findAny().isEmpty();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + out + ": " + e.getMessage(), e);
            }
            if (!Files.isDirectory(out)) {
                throw new IllegalArgumentException("--out " + out + " is a file, not a folder: merge writes a new run"
                        + " folder; name another --out");
            }
            if (!empty) {
                throw new IllegalArgumentException("--out " + out + " exists and is not empty: merge writes a new run"
                        + " folder; name another --out");
            }
        }
        List<Part> parts = new ArrayList<>();
        for (Path dir : dirs) {
            Path file = dir.resolve(RunConfig.FILE);
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException(dir + " holds no " + RunConfig.FILE + ": not an eval run folder"
                        + " (merge joins the --out folders of eval --shard I/N)");
            }
            RunConfiguration config = ResultsJson.runConfiguration(file);
            if (config.shard() == null) {
                throw new IllegalArgumentException(dir + " is a whole run, not a shard (its " + RunConfig.FILE
                        + " has no shard): merge joins the --out folders of eval --shard I/N");
            }
            Shard shard = Shard.parse(config.shard());
            // an eval still writing it: merge holds the shard's lock (taken before this check) until it is done
            RunDir run = RunDir.load(dir);
            String unfinished = run.partial() != null ? run.partial()
                    : run.summary().stopped() != null ? "it stopped early: " + run.summary().stopped() : null;
            if (unfinished != null && !allow.unfinished()) {
                throw new IllegalArgumentException(dir + " (shard " + shard + ") is unfinished (" + unfinished
                        + "); run its eval command again to finish it, or pass --allow-unfinished to merge what it has");
            }
            parts.add(new Part(dir, config, shard, run));
        }
        parts.sort(Comparator.comparing((Part p) -> p.shard().indexList().getFirst()));
        Part first = parts.getFirst();
        for (Part p : parts.subList(1, parts.size())) {
            if (p.shard().count() != first.shard().count()) {
                throw new IllegalArgumentException(first.dir() + " is a shard of " + first.shard().count() + " and "
                        + p.dir() + " of " + p.shard().count() + ": merge the shards of one split");
            }
            List<String> diff = RunConfig.differences(ResultsJson.tree(first.config().withSchemaVersion(null).withShard(null)),
                    ResultsJson.tree(p.config().withSchemaVersion(null).withShard(null)));
            if (!diff.isEmpty()) {
                throw new IllegalArgumentException(first.dir() + " and " + p.dir() + " are shards of different runs ("
                        + String.join("; ", diff) + "): merge the shards of one eval configuration");
            }
            // (an unfinished shard's summary, when allowed, is folded from its lines and does not know its limit)
            if (first.run().partial() == null && p.run().partial() == null
                    && !Objects.equals(first.run().summary().limit(), p.run().summary().limit())) {
                throw new IllegalArgumentException(first.dir() + " and " + p.dir() + " ran with different --limit ("
                        + text(first.run().summary().limit()) + ", " + text(p.run().summary().limit())
                        + "): shards of one run take the same --limit");
            }
        }
        Shard seen = null;
        Map<Integer, Path> owner = new TreeMap<>();
        for (Part p : parts) {
            for (int i : p.shard().indexList()) {
                Path other = owner.putIfAbsent(i, p.dir());
                if (other != null) {
                    throw new IllegalArgumentException(other + " and " + p.dir() + " overlap: both hold shard " + i
                            + "/" + p.shard().count() + " (" + other.getFileName() + " is " + parts.stream()
                            .filter(q -> q.dir().equals(other)).findFirst().orElseThrow().shard() + ", "
                            + p.dir().getFileName() + " is " + p.shard() + "); give each shard once");
                }
            }
            seen = seen == null ? p.shard() : seen.union(p.shard());
        }
        if (!seen.whole() && !allow.missing()) {
            throw new IllegalArgumentException("shard" + (seen.missing().size() > 1 ? "s " : " ")
                    + String.join(", ", seen.missing().stream().map(i -> i + "/" + first.shard().count()).toList())
                    + " missing (given " + seen + "): add their folders, or pass --allow-missing to merge these");
        }
        for (Part p : parts) {
            // every question in the shard its folder says: a folder holding another shard's questions would overlap
            for (int row = 0; row < p.run().answered(); row++) {
                requireInShard(p, p.run().id(row));
            }
            p.run().failureRecords().forEach(f -> requireInShard(p, f.id()));
        }
        return parts;
    }

    private static void requireInShard(Part p, String id) {
        if (id == null || !p.shard().contains(id)) {
            throw new IllegalArgumentException(p.dir() + " holds question " + id + ", which is not in its shard "
                    + p.shard() + " (it is in " + (id == null ? "none" : Shard.bucket(id, p.shard().count()) + "/"
                    + p.shard().count()) + "): the folder is not the shard its " + RunConfig.FILE + " says");
        }
    }

    private static String text(Object o) {
        return o == null ? "none" : o.toString();
    }

    /** One shard's rows in the dataset's order: its answers and its unanswered questions' failure records. */
    private static final class Cursor implements AutoCloseable {
        final int part;
        final RunDir run;
        final RunDir.Lines lines;
        final int[] rows;
        final List<ResultLine> failures;
        int nextRow;
        int nextFailure;

        Cursor(int part, RunDir run) {
            this.part = part;
            this.lines = run.lines();
            this.rows = run.datasetOrder();
            List<ResultLine> f = new ArrayList<>(run.failureRecords());
            f.sort(Comparator.comparingInt(l -> l.position() == null ? Integer.MAX_VALUE : l.position()));
            this.failures = f;
            this.run = run;
        }

        boolean done() {
            return nextRow >= rows.length && nextFailure >= failures.size();
        }

        /** The position of the next row (an answer before a failure record of the same place). */
        long key() {
            long a = nextRow < rows.length ? place(run.position(rows[nextRow])) : Long.MAX_VALUE;
            long f = nextFailure < failures.size() ? place(failures.get(nextFailure).position()) : Long.MAX_VALUE;
            return Math.min(a, f);
        }

        private static long place(Integer position) {
            return position == null || position < 0 ? Integer.MAX_VALUE : position;
        }

        /** Writes the next row. */
        void writeNext(ResultsFile out) {
            long a = nextRow < rows.length ? place(run.position(rows[nextRow])) : Long.MAX_VALUE;
            long f = nextFailure < failures.size() ? place(failures.get(nextFailure).position()) : Long.MAX_VALUE;
            if (a <= f) {
                out.append(lines.at(rows[nextRow++]));
            } else {
                ResultLine r = failures.get(nextFailure++);
                out.appendFailure(r.id(), r.position(), r.question(), r.failedKind(), r.failed());
            }
        }

        @Override
        public void close() {
            lines.close();
        }
    }

    /** The shards' rows merged by position (ties: shard order), through the run's own results writer. */
    private static void writeLines(List<Part> parts, ResultsFile out) {
        List<Cursor> cursors = new ArrayList<>();
        try {
            for (int i = 0; i < parts.size(); i++) {
                cursors.add(new Cursor(i, parts.get(i).run()));
            }
            PriorityQueue<Cursor> queue = new PriorityQueue<>(
                    Comparator.comparingLong(Cursor::key).thenComparingInt(c -> c.part));
            cursors.stream().filter(c -> !c.done()).forEach(queue::add);
            while (!queue.isEmpty()) {
                Cursor c = queue.poll();
                c.writeNext(out);
                if (!c.done()) {
                    queue.add(c);
                }
            }
        } finally {
            cursors.forEach(Cursor::close);
        }
    }

    /** The merged summary: the runner's fold over the merged lines, the run's identity and how its shards went. */
    private static Summary summary(List<Part> parts, RunConfiguration config, ResultsFile results) {
        Map<String, String> options = new LinkedHashMap<>();
        if (config.methodOptions() != null) {
            config.methodOptions().forEach((k, v) -> options.put(k, v instanceof List<?> l
                    ? String.join(",", l.stream().map(String::valueOf).toList()) : String.valueOf(v)));
        }
        List<Metric> metrics = config.metricsOrEmpty().stream().map(n -> Metrics.byName(n, options)).toList();
        // what the run was, from a finished shard where there is one (an unfinished one's summary has only its identity)
        Summary base = parts.stream().filter(p -> p.run().partial() == null).findFirst().orElse(parts.getFirst())
                .run().summary();
        DocumentSource.RetrievalTally retrieval = base.retrieval() == null ? null
                : DocumentSource.RetrievalTally.like(base.retrieval());
        TruncationTally truncation = new TruncationTally();
        Summary.Builder s = EvalRunner.fold(results.answered(), metrics, retrieval, truncation);
        // what the run was: the same in every shard (their configurations are equal)
        s.method = base.method();
        s.dataset = base.dataset();
        s.data = base.data();
        s.sample = base.sample();
        s.model = base.model();
        s.llmBaseUrl = base.llmBaseUrl();
        s.concurrency = base.concurrency();
        s.timeoutSeconds = base.timeoutSeconds();
        s.cache = base.cache();
        s.bench = base.bench();
        s.demo = base.demo();
        s.questionsAtOnce = base.questionsAtOnce();
        s.limit = base.limit();
        s.build = base.build();
        s.config = config;
        // how the shards went: counts summed, times spanned
        List<Summary> summaries = parts.stream().map(p -> p.run().summary()).toList();
        // as instants, not text: Instant.toString() writes as many fraction digits as it needs
        Summary last = summaries.stream().filter(x -> x.finished() != null)
                .max(Comparator.comparing((Summary x) -> Instant.parse(x.finished()))).orElse(base);
        s.traceRun = last.traceRun();
        s.errors = summaries.stream().mapToInt(x -> x.errors() == null ? 0 : x.errors()).sum();
        s.failed = results.failures().size();
        s.questions = summaries.stream().allMatch(x -> x.questions() != null)
                ? summaries.stream().mapToInt(Summary::questions).sum() : null;
        String started = summaries.stream().map(Summary::started).filter(Objects::nonNull)
                .min(Comparator.comparing(Instant::parse)).orElse(null);
        s.started = started;
        s.finished = last.finished();
        s.wallSeconds = started == null || last.finished() == null ? null
                : Duration.between(Instant.parse(started), Instant.parse(last.finished())).toMillis() / 1000.0;
        s.stopped = summaries.stream().map(Summary::stopped).filter(Objects::nonNull).findFirst().orElse(null);
        Truncation.Policy policy = "keep".equals(config.truncated()) ? Truncation.Policy.KEEP : Truncation.Policy.FAIL;
        s.truncated = truncation.result(results.failures().stream()
                .filter(f -> dev.veracity.llm.ErrorKind.TRUNCATED.name().equals(f.failedKind())).count(), policy);
        if (retrieval != null) {
            Summary.Retrieval r = retrieval.result();
            s.retrieval = base.retrieval().references() == null ? r : r.withReferences(base.retrieval().references());
        }
        s.sampling = sampling(summaries);
        s.concurrencyLimit = concurrencyLimit(summaries, last);
        s.endpoints = endpoints(summaries);
        return s.build();
    }

    /** The shards' model servers: each server's counts summed over the shards, in the order they first appear. */
    private static List<Summary.Endpoint> endpoints(List<Summary> summaries) {
        Map<String, Summary.Endpoint> sum = new java.util.LinkedHashMap<>();
        for (Summary x : summaries) {
            if (x.endpoints() != null) {
                x.endpoints().forEach(e -> sum.merge(e.endpoint(), e, (a, b) -> new Summary.Endpoint(a.endpoint(),
                        a.attempts() + b.attempts(), a.answered() + b.answered(), a.failures() + b.failures(),
                        a.ejections() + b.ejections(), a.returns() + b.returns())));
            }
        }
        return sum.isEmpty() ? null : List.copyOf(sum.values());
    }

    /** Per role, the union of the shards' distinct sampling settings, sorted as the runner sorts them (by their JSON). */
    private static Map<String, List<Map<String, Object>>> sampling(List<Summary> summaries) {
        Map<String, TreeMap<String, Map<String, Object>>> union = new TreeMap<>();
        for (Summary x : summaries) {
            if (x.sampling() != null) {
                x.sampling().forEach((role, list) -> list.forEach(m -> union.computeIfAbsent(role, k -> new TreeMap<>())
                        .put(ResultsJson.tree(m).toString(), m)));
            }
        }
        if (union.isEmpty()) {
            return summaries.stream().allMatch(x -> x.sampling() == null) ? null : Map.of();
        }
        Map<String, List<Map<String, Object>>> out = new TreeMap<>();
        union.forEach((role, m) -> out.put(role, List.copyOf(m.values())));
        return out;
    }

    /** The shards' adaptive limits: lowest and highest over them, drops summed, the last shard's settled limit. */
    private static Summary.AdaptiveLimit concurrencyLimit(List<Summary> summaries, Summary last) {
        List<Summary.AdaptiveLimit> limits = summaries.stream().map(Summary::concurrencyLimit).filter(Objects::nonNull)
                .toList();
        if (limits.isEmpty()) {
            return null;
        }
        Summary.AdaptiveLimit settled = last.concurrencyLimit() != null ? last.concurrencyLimit() : limits.getLast();
        return new Summary.AdaptiveLimit(settled.settled(),
                limits.stream().mapToInt(Summary.AdaptiveLimit::lowest).min().orElseThrow(),
                limits.stream().mapToInt(Summary.AdaptiveLimit::highest).max().orElseThrow(),
                limits.stream().mapToLong(Summary.AdaptiveLimit::overloadDrops).sum());
    }

    /** The shards' traced calls, run by run, into the merged folder's {@code traces.db}; the count copied. */
    private static long mergeTraces(List<Part> parts, Path out) {
        List<Path> stores = parts.stream().map(p -> p.run().traces()).filter(Files::isRegularFile).toList();
        if (stores.isEmpty()) {
            return 0;
        }
        long[] n = {0};
        try (TraceStore merged = TraceStore.open(out.resolve("traces.db"))) {
            for (Path file : stores) {
                try (TraceStore shard = TraceStore.open(file)) {
                    for (String run : shard.runs()) {
                        shard.forEachCall(run, call -> {
                            merged.record(call);
                            if (++n[0] % 1024 == 0) {
                                merged.flush(); // the writer keeps up: calls are not queued by the million
                            }
                        });
                    }
                }
            }
            merged.flush();
        }
        return n[0];
    }

    /** The method's side files (its training records), the shards' lines one after another, in shard order. */
    private static void joinSideFiles(List<Part> parts, Path out, List<String> names) {
        for (String name : names) {
            List<Path> files = parts.stream().map(p -> p.dir().resolve(name)).filter(Files::isRegularFile).toList();
            if (files.isEmpty()) {
                continue;
            }
            try (FileChannel w = FileChannel.open(out.resolve(name), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                for (Path f : files) {
                    // JSON lines: a concatenation is the union, once a torn last line (a shard killed while it
                    // wrote, let through by --allow-unfinished) is left out
                    try (FileChannel r = FileChannel.open(f, StandardOpenOption.READ)) {
                        long end = endOfLastLine(r);
                        for (long at = 0; at < end; ) {
                            at += r.transferTo(at, end - at, w);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("joining " + name + " into " + out + ": " + e.getMessage(), e);
            }
        }
    }
}
