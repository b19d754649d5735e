package dev.veracity.cli;

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
        for (int i = 0; i < specs.size(); i++) {
            if (i > 0) {
                out.println();
            }
            print(specs.get(i), out);
        }
        out.flush();
        return 0;
    }

    static void print(MethodSpec m, PrintWriter out) {
        out.println(m.name() + "  " + m.description());
        out.println("  implements: " + m.source());
        out.println("  needs: " + (m.needs().isEmpty() ? "nothing (closed book)" : Capability.keys(m.needs())));
        if (m.options().isEmpty()) {
            out.println("  options: none");
            return;
        }
        out.println("  options (--option NAME=VALUE):");
        int width = m.options().stream().mapToInt(o -> o.withDefault().length()).max().orElse(0);
        for (OptionSpec o : m.options()) {
            out.printf("    %-" + width + "s  %-8s  %s%n", o.withDefault(), o.type().toString(),
                    o.description() + (o.type() == OptionSpec.Type.ENUM ? " (" + String.join(" | ", o.values()) + ")" : ""));
        }
    }
}
