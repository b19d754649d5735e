package dev.veracity.cli;

import dev.veracity.method.AgentRecord;
import dev.veracity.rl.records.RunRecords;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity rl records}: any eval run's calls as agent records for multi-agent training. */
@Command(name = "records", mixinStandardHelpOptions = true,
        description = "Write an eval run's traced calls as agent records (one schema for every method: run, question_id,"
                + " method, role, node_id, parent_id, messages, response, reward), each rewarded with its question's outcome.")
final class RlRecordsCommand implements Callable<Integer> {

    @Option(names = "--from", required = true, paramLabel = "RUN_DIR", description = "An eval output folder.")
    Path from;

    @Option(names = "--reward", required = true, paramLabel = "metric:NAME|signal:NAME",
            description = "The outcome each record gets: a metric of the result lines (metric:em) or a method signal (signal:ztr).")
    String reward;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "JSON lines.")
    Path out;

    @Override
    public Integer call() throws Exception {
        List<AgentRecord> records = RunRecords.of(from, reward);
        RunRecords.write(records, out);
        System.out.println(records.size() + " agent records from " + from + " in " + out + "; inspect them with"
                + " ./veracity rl inspect " + out);
        return 0;
    }
}
