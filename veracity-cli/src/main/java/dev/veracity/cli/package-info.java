/**
 * The {@code ./veracity} command line (picocli): {@code sim} runs the simulator, {@code demo} runs a multi-agent
 * exchange through the whole stack, {@code bench} prints benchmark figures. Model settings come from flags,
 * environment variables and a config file ({@link dev.veracity.config.VeracityConfig}).
 */
package dev.veracity.cli;
