package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Lucene's log lines stay off the console for the whole run: the levels are set as soon as the CLI's class is loaded
 * and survive garbage collection (the JDK keeps loggers weakly, so a level set on a logger nobody holds is lost at
 * the next collection, and Lucene's vectorization WARNING then reaches stderr).
 */
class QuietLoggersTest {

    @Test
    void luceneLoggersKeepTheirLevelsThroughGarbageCollection() throws Exception {
        Class.forName(VeracityCli.class.getName(), true, VeracityCli.class.getClassLoader());
        List<byte[]> garbage = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 64; i++) {
                garbage.add(new byte[1 << 16]);
            }
            garbage.clear();
            System.gc();
        }
        assertThat(Logger.getLogger("org.apache.lucene").getLevel()).isEqualTo(Level.WARNING);
        assertThat(Logger.getLogger("org.apache.lucene.internal.vectorization").getLevel()).isEqualTo(Level.SEVERE);
        // what Lucene's VectorizationProvider logs through: below the level, never printed
        assertThat(Logger.getLogger("org.apache.lucene.internal.vectorization.VectorizationProvider")
                .isLoggable(Level.WARNING)).isFalse();
    }
}
