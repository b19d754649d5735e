package dev.veracity.cli;

import dev.veracity.eval.report.TextTable;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.methods.Methods;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./veracity methods [NAME]}: every method's declaration (description, paper section, needs, options). */
@Command(name = "methods", mixinStandardHelpOptions = true,
        description = "List the methods with their description, the paper section they implement, what they need"
                + " (documents, an index, pages, an embedder, a model of their own) and their --option settings with"
                + " defaults; with a NAME, that method only.")
final class MethodsCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "A method name.")
    String name;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<MethodSpec> specs = name == null ? Methods.specs() : List.of(Methods.spec(name));
        PrintWriter out = spec.commandLine().getOut();
        int width = Terminal.columns();
        for (int i = 0; i < specs.size(); i++) {
            if (i > 0) {
                out.println();
            }
            out.print(text(specs.get(i), width));
        }
        out.flush();
        return 0;
    }

    /** A method's declaration fitted to {@code width}: paragraphs wrapped, the options a table whose text wraps. */
    static String text(MethodSpec m, int width) {
        StringBuilder out = new StringBuilder();
        out.append(TextTable.wrap(m.description(), width, m.name() + "  ", "  "));
        out.append(TextTable.wrap("implements: " + m.source(), width, "  ", "    "));
        out.append(TextTable.wrap("needs: " + (m.needs().isEmpty() ? "nothing (closed book)" : Capability.keys(m.needs())),
                width, "  ", "    "));
        if (m.options().isEmpty()) {
            out.append("  options: none\n");
            return out.toString();
        }
        out.append("  options (--option NAME=VALUE):\n");
        TextTable options = new TextTable(List.of(
                TextTable.Column.text("option", 12, 20).wrapped(12),
                TextTable.Column.text("type", 4, 20),
                TextTable.Column.text("description", 20, 10).wrapped(20))).noRule().noHeader();
        for (OptionSpec o : m.options()) {
            options.row(List.of(o.withDefault(), o.type().toString(),
                    o.description() + (o.type() == OptionSpec.Type.ENUM ? " (" + String.join(" | ", o.values()) + ")" : "")));
        }
        options.render(Math.max(1, width - 4)).lines().forEach(l -> out.append("    ").append(l).append('\n'));
        return out.toString();
    }
}
