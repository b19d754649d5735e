package dev.veracity.cli;

import dev.veracity.method.AgentRecord;
import dev.veracity.rl.jsonl.JsonlRows;
import dev.veracity.rl.records.RecordsInspection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./veracity rl inspect}: the learning signal in a file of agent records. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Per role: reward distribution, share of GRPO groups with no reward variance (no learning signal),"
                + " spread of the advantages VeRL, TRL and OpenRLHF would compute.")
final class RlInspectCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RECORDS", description = "Agent records (JSON lines).")
    Path file;

    @Option(names = "--html", paramLabel = "DIR", description = "Also write DIR/index.html with a chart.")
    Path html;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no records file at " + file);
        }
        List<AgentRecord> records = new ArrayList<>();
        JsonlRows.forEach(file, (n, row) -> {
            try {
                records.add(AgentRecord.fromJson(row));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + n + ": " + e.getMessage());
            }
        });
        List<RecordsInspection.RoleStats> stats = RecordsInspection.of(records);
        String text = RecordsInspection.text(stats, Terminal.columns());
        System.out.print(text);
        if (html != null) {
            Files.createDirectories(html);
            List<String> roles = stats.stream().map(RecordsInspection.RoleStats::role).toList();
            Map<String, List<Double>> series = new LinkedHashMap<>();
            series.put("mean reward", stats.stream().map(s -> Double.isNaN(s.mean()) ? null : s.mean()).toList());
            series.put("groups with no signal (share)", stats.stream().map(RecordsInspection.RoleStats::zeroVarianceShare)
                    .map(Double::valueOf).toList());
            boolean chart = dev.veracity.eval.report.Charts.bars(html.resolve("roles.png"), "Rewards per role", "value",
                    roles, series);
            String page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>records: " + esc(file.toString())
                    + "</title></head><body><h1>Agent records: " + esc(file.getFileName().toString()) + "</h1>"
                    + (chart ? "<img src=\"roles.png\" alt=\"bar chart of the mean reward and the share of groups with no"
                    + " signal per role\">" : "") + "<pre>" + esc(text) + "</pre></body></html>\n";
            Files.writeString(html.resolve("index.html"), page);
            System.out.println("HTML: " + html.resolve("index.html"));
        }
        return 0;
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
