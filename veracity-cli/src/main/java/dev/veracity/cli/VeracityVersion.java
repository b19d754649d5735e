package dev.veracity.cli;

import dev.veracity.config.BuildInfo;
import picocli.CommandLine;

/**
 * What {@code --version} prints on every command, nested and plug-in ones included: the build (project version and
 * the commit it was built from, as a run records it in run.json) and the Java running it.
 */
final class VeracityVersion implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {line(BuildInfo.current())};
    }

    static String line(BuildInfo build) {
        String commit = build.commit().equals("unknown") ? "commit unknown"
                : "commit " + build.commit().substring(0, Math.min(12, build.commit().length()))
                        + (build.dirty() ? ", uncommitted changes" : "");
        return "Veracity " + build.version() + " (" + commit + "), Java " + Runtime.version();
    }

    /**
     * Gives every command of the tree {@code --help} and {@code --version}: a command that declares no version (all but
     * the root, and any plug-in's) answers with this build's.
     */
    static void everywhere(CommandLine commandLine) {
        CommandLine.Model.CommandSpec spec = commandLine.getCommandSpec();
        if (!spec.helpCommand()) { // picocli's help command has its own -h and takes command names
            if (!spec.mixinStandardHelpOptions()) {
                spec.mixinStandardHelpOptions(true);
            }
            if (spec.version().length == 0) {
                spec.versionProvider(new VeracityVersion());
            }
        }
        commandLine.getSubcommands().values().forEach(VeracityVersion::everywhere);
    }
}
