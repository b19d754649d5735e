package dev.veracity.methods.court;

import dev.veracity.method.PromptTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A few-shot agent prompt taken apart so that agents can see its examples in another order: the instruction (the
 * lines before the first example), the examples (each from a line starting with the task's label, "Question:" or
 * "Claim:"), and the final turn that holds {@code {question}}. In the paper's order it is the resource as printed.
 */
final class FewShotPrompt {

    /** How an agent orders the examples: the paper's order, rotated by agent, reversed, or shuffled by seed. */
    enum Order {
        SAME, ROTATE, REVERSE, SHUFFLE
    }

    private final String instruction;
    private final List<String> examples;
    private final String finalTurn;

    private FewShotPrompt(String instruction, List<String> examples, String finalTurn) {
        this.instruction = instruction;
        this.examples = examples;
        this.finalTurn = finalTurn;
    }

    static FewShotPrompt of(PromptTemplate template, String label) {
        String[] lines = template.text().split("\n", -1);
        StringBuilder instruction = new StringBuilder();
        List<StringBuilder> blocks = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith(label + ":")) {
                blocks.add(new StringBuilder());
            }
            StringBuilder target = blocks.isEmpty() ? instruction : blocks.getLast();
            target.append(line).append('\n');
        }
        if (blocks.isEmpty() || !blocks.getLast().toString().contains("{question}")) {
            throw new IllegalStateException(template.name() + ": no final '" + label + ": {question}' turn");
        }
        String last = blocks.removeLast().toString();
        return new FewShotPrompt(instruction.toString(), blocks.stream().map(StringBuilder::toString).toList(),
                last.substring(0, last.length() - 1));
    }

    int exampleCount() {
        return examples.size();
    }

    /**
     * The prompt for agent {@code agent} (from 1) with its examples ordered as asked ({@code seed} drives
     * {@link Order#SHUFFLE}), the placeholders filled.
     */
    String render(Order order, int agent, long seed, Map<String, String> values) {
        List<String> ex = new ArrayList<>(examples);
        switch (order) {
            case ROTATE -> java.util.Collections.rotate(ex, -((agent - 1) % Math.max(1, ex.size())));
            case REVERSE -> java.util.Collections.reverse(ex);
            case SHUFFLE -> java.util.Collections.shuffle(ex, new Random(seed * 31 + agent));
            case SAME -> { }
        }
        StringBuilder sb = new StringBuilder(instruction);
        ex.forEach(sb::append);
        sb.append(finalTurn);
        return PromptTemplate.of("few-shot", sb.toString()).fill(values);
    }
}
