package dev.veracity.rl.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code rl inspect}'s text: every column on a wide terminal, and no line longer than an 80-column one. */
class RecordsInspectionTest {

    private static List<RecordsInspection.RoleStats> stats() {
        Map<String, Double> spread = new LinkedHashMap<>();
        spread.put("verl", 0.7071);
        spread.put("trl", 0.5);
        spread.put("openrlhf", Double.NaN);
        Map<String, Integer> histogram = new LinkedHashMap<>();
        histogram.put("0.00", 12);
        histogram.put("1.00", 30);
        return List.of(new RecordsInspection.RoleStats("aggregator-with-a-long-role-name", 42, 42, 0.714, 0.0, 1.0,
                        histogram, 21, 9, spread),
                new RecordsInspection.RoleStats("agent-1", 63, 60, 0.5, 0.0, 1.0, histogram, 21, 3, spread));
    }

    @Test
    void atEightyColumnsNoLineIsLongerAndAWideTerminalShowsEveryColumn() {
        String narrow = RecordsInspection.text(stats(), 80);
        assertThat(narrow.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
        assertThat(narrow).contains("aggregator-with-a-long-role-name").contains("no signal").contains("42.9%")
                .contains("rewards of agent-1: {0.00=12, 1.00=30}");
        String wide = RecordsInspection.text(stats(), 200);
        String header = wide.lines().findFirst().orElseThrow();
        assertThat(header.split("\\s{2,}")).containsExactly("role", "records", "rewarded", "mean", "min", "max",
                "groups", "no signal", "advantage std (verl / trl / openrlhf)");
        assertThat(wide).contains("0.707 / 0.500 / n/a");
    }
}
