/**
 * The answering methods, one package per paper, and the {@link dev.veracity.methods.Methods} registry by name.
 * {@link dev.veracity.methods.RolePrompts} selects a method's role prompt ({@code march:solver}) for training data,
 * from the roles each registered method lists.
 */
package dev.veracity.methods;
