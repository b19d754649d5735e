package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Real sample questions copied to a test's folder, and readers for what the export writes. */
final class ExportFixtures {

    static final ObjectMapper JSON = new ObjectMapper();

    /** The first three questions of the RAMDocs test set (MADAM-RAG; MIT): documents, gold and wrong answers. */
    static final String RAMDOCS = "ramdocs-3.jsonl";
    /** The first three questions of NQ-open dev (CC BY-SA 3.0): no documents, aliases as gold. */
    static final String NQ_OPEN = "nq-open-3.jsonl";

    private ExportFixtures() {
    }

    static Path copy(String resource, Path dir) {
        try (InputStream in = ExportFixtures.class.getResourceAsStream(resource)) {
            Path f = dir.resolve(resource);
            Files.copy(in, f);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<JsonNode> jsonl(Path f) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(f)) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    static Path write(Path f, String... lines) throws IOException {
        Files.writeString(f, String.join("\n", lines) + "\n");
        return f;
    }

    /** The files in a folder, by name (a partial or temporary file left behind shows here). */
    static List<String> files(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A SQL string literal: single quotes doubled, so any path is one literal. */
    static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** A parquet file's columns and DuckDB types, read back by DuckDB (a reader independent of our writer). */
    static Map<String, String> parquetSchema(Path f) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("DESCRIBE SELECT * FROM read_parquet(" + quote(f.toString()) + ")")) {
            while (r.next()) {
                out.put(r.getString("column_name"), r.getString("column_type"));
            }
        }
        return out;
    }

    /** A parquet file's rows as JSON objects, in file order, read back by DuckDB. */
    static List<JsonNode> parquetRows(Path f) throws SQLException, IOException {
        List<JsonNode> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT to_json(t) FROM read_parquet(" + quote(f.toString()) + ") t")) {
            while (r.next()) {
                out.add(JSON.readTree(r.getString(1)));
            }
        }
        return out;
    }
}
