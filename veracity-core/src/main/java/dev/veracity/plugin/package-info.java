/**
 * Plug-ins: {@link dev.veracity.plugin.Plugins} finds providers with {@link java.util.ServiceLoader} on the class path
 * and in a folder of jars ({@code --plugins DIR}); {@link dev.veracity.plugin.Registry} turns one provider service into
 * a registry by name; {@link dev.veracity.plugin.MethodProvider} contributes answering methods. Other extension points
 * live beside what they extend (datasets and judges in veracity-eval, rewards in veracity-rl, commands in the CLI).
 */
package dev.veracity.plugin;
