package dev.veracity.cli;

import java.util.List;

/**
 * Contributes subcommands of {@code ./veracity} (a service: list the implementation in
 * {@code META-INF/services/dev.veracity.cli.CommandProvider}): picocli {@code @Command} classes with a no-argument
 * constructor, each under its own name. The built-in commands come the same way ({@link BuiltInCommands}).
 */
public interface CommandProvider {

    /** The command classes, in the order {@code ./veracity --help} lists them. */
    List<Class<?>> commands();
}
