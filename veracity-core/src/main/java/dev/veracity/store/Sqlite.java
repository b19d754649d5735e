package dev.veracity.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Opens the SQLite files Veracity keeps (response cache, traces) with the settings they all want. */
public final class Sqlite {

    private Sqlite() {
    }

    /**
     * Opens (creating it and its folder if needed) a database in WAL mode: readers never block the writer, and
     * {@code synchronous=NORMAL} keeps a commit cheap while a crash loses at most the last transactions, never
     * the file.
     *
     * @param readOnly open without write access (the file must exist)
     */
    public static Connection open(Path file, boolean readOnly) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (!readOnly && parent != null) {
                Files.createDirectories(parent);
            }
            if (readOnly && !Files.exists(file)) {
                throw new IllegalArgumentException("no database at " + file + " (a read-only cache or trace file "
                        + "must exist; run once with read-write mode to create it)");
            }
            org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
            config.setReadOnly(readOnly);
            config.setBusyTimeout(10_000);
            if (!readOnly) {
                config.setJournalMode(org.sqlite.SQLiteConfig.JournalMode.WAL);
                config.setSynchronous(org.sqlite.SQLiteConfig.SynchronousMode.NORMAL);
            }
            SqliteNative.prepare();
            // the driver itself rather than DriverManager, whose first use reads every jar's list of JDBC drivers
            return org.sqlite.JDBC.createConnection("jdbc:sqlite:" + file.toAbsolutePath(), config.toProperties());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the folder for " + file + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open SQLite database " + file + ": " + e.getMessage()
                    + " (check the path is writable and not held by another program)", e);
        }
    }

    /**
     * Loads the driver's native library now (a program's first database otherwise pays for it when it opens), so that a
     * caller can do it beside other start-up work. A failure is left for {@link #open} to report.
     */
    public static void loadLibrary() {
        SqliteNative.prepare();
        try {
            org.sqlite.SQLiteJDBCLoader.initialize();
        } catch (Exception | LinkageError e) {
            // open() says what went wrong, where the user reads it
        }
    }

    /** Runs DDL statements. */
    public static void execute(Connection c, String... statements) {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SQLite schema statement failed: " + e.getMessage(), e);
        }
    }
}
