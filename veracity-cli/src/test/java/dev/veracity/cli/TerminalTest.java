package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The width the command line prints at: COLUMNS, else the terminal's, else 80. */
class TerminalTest {

    @Test
    void columnsComeFromColumnsThenTheTerminalThenEighty() {
        assertThat(Terminal.columns(Map.of("COLUMNS", "132"), () -> 100)).isEqualTo(132);
        assertThat(Terminal.columns(Map.of(), () -> 100)).isEqualTo(100);
        assertThat(Terminal.columns(Map.of(), () -> 0)).isEqualTo(80); // a pipe, a log file: not known
        assertThat(Terminal.columns(Map.of("COLUMNS", "wide"), () -> 0)).isEqualTo(80);
        assertThat(Terminal.columns(Map.of("COLUMNS", "0"), () -> 90)).isEqualTo(90);
        // below the narrowest width a table can be read at
        assertThat(Terminal.columns(Map.of("COLUMNS", "12"), () -> 0)).isEqualTo(Terminal.MIN_COLUMNS);
    }
}
