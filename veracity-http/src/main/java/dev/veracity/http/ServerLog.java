package dev.veracity.http;

import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Where a server says what happened: one line per event. */
public interface ServerLog {

    void info(String line);

    void warn(String line);

    /** Nothing is written. */
    static ServerLog none() {
        return new ServerLog() {
            @Override
            public void info(String line) {
            }

            @Override
            public void warn(String line) {
            }
        };
    }

    /** Timestamped lines on the stream ({@code 2026-11-23T12:00:00.123 WARN ...}). */
    static ServerLog to(PrintStream out) {
        return new ServerLog() {
            @Override
            public void info(String line) {
                write("INFO", line);
            }

            @Override
            public void warn(String line) {
                write("WARN", line);
            }

            private void write(String level, String line) {
                String ts = DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(LocalDateTime.now().truncatedTo(ChronoUnit.MILLIS));
                out.println(ts + " " + level + " " + line);
                out.flush();
            }
        };
    }
}
