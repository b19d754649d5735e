package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The launcher's carriers per core become the virtual-thread scheduler's parallelism, unless the user set one. */
class CarriersTest {

    private static Properties with(String perCore, String parallelism) {
        Properties p = new Properties();
        if (perCore != null) {
            p.setProperty(Carriers.PER_CORE, perCore);
        }
        if (parallelism != null) {
            p.setProperty(Carriers.PARALLELISM, parallelism);
        }
        return p;
    }

    @Test
    void theLaunchersRequestTimesTheCoresIsTheParallelism() {
        Properties p = with("2", null);
        Carriers.apply(p, 2);
        assertThat(p.getProperty(Carriers.PARALLELISM)).isEqualTo("4");
        Properties many = with(" 3 ", null);
        Carriers.apply(many, 16);
        assertThat(many.getProperty(Carriers.PARALLELISM)).isEqualTo("48");
        Properties none = with("2", null);
        Carriers.apply(none, 0); // a count below one reads as one core
        assertThat(none.getProperty(Carriers.PARALLELISM)).isEqualTo("2");
    }

    @Test
    void aParallelismTheUserSetStandsAndWithoutARequestOrWithABadOneTheJdksDefaultStands() {
        Properties set = with("2", "7");
        Carriers.apply(set, 2);
        assertThat(set.getProperty(Carriers.PARALLELISM)).isEqualTo("7");
        for (String bad : new String[] {null, "", "two", "0", "-1", "9", "99999999999"}) {
            Properties p = with(bad, null);
            Carriers.apply(p, 2);
            assertThat(p.getProperty(Carriers.PARALLELISM)).as(String.valueOf(bad)).isNull();
        }
    }
}
