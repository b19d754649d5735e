package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.AtomicJsonlWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Parquet through DuckDB's JDBC driver (no Hadoop): the rows are staged as JSON Lines beside the target, then one
 * {@code COPY (SELECT * FROM read_json(...)) TO ... (FORMAT parquet)} writes them with the declared column types (so
 * nested lists and structs get exactly the schema the trainer expects, whatever the first rows hold) to a temporary
 * file that is moved over the target. Row order is kept (DuckDB preserves insertion order by default).
 */
final class ParquetSink implements RowSink {

    /** Large prompts (CRAG's web pages) make large rows; DuckDB's JSON reader refuses objects over its limit. */
    private static final long MAX_ROW_BYTES = 1L << 30;

    private final Path target;
    private final String columnsSql;
    private final Path staging;
    private final AtomicJsonlWriter rows;
    private final Path tmp;
    private final Path spill;

    /** @param columns name to DuckDB type, in file order */
    ParquetSink(Path target, Map<String, String> columns) {
        this.target = target.toAbsolutePath();
        this.columnsSql = columns.entrySet().stream()
                .map(e -> quoteIdentifier(e.getKey()) + ": " + quote(e.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
        Path dir = this.target.getParent();
        String name = "." + this.target.getFileName();
        this.staging = dir.resolve(name + ".rows.jsonl");
        this.tmp = dir.resolve(name + ".tmp");
        this.spill = dir.resolve(name + ".duckdb-spill");
        this.rows = new AtomicJsonlWriter(staging);
    }

    @Override
    public void write(ObjectNode row) {
        rows.write(row);
    }

    @Override
    public void commit() {
        rows.commit();
        String sql = "COPY (SELECT * FROM read_json(" + quote(staging.toString()) + ", format = 'newline_delimited',"
                + " records = true, maximum_object_size = " + MAX_ROW_BYTES + ", columns = " + columnsSql + ")) TO "
                + quote(tmp.toString()) + " (FORMAT parquet)";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            // an in-memory database spills to ./.tmp by default: keep its temporary files beside ours
            s.execute("SET temp_directory = " + quote(spill.toString()));
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(target + ": DuckDB could not write the parquet file: " + e.getMessage(), e);
        }
        try {
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(target + ": cannot write: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        rows.close();
        try {
            Files.deleteIfExists(staging);
            Files.deleteIfExists(tmp);
            if (Files.isDirectory(spill)) {
                try (var files = Files.walk(spill)) {
                    for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        } catch (IOException ignored) {
            // best effort: a stray hidden file, never a partial target
        }
    }

    /** A SQL string literal: single quotes doubled, so any path is one literal. */
    static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private static String quoteIdentifier(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
