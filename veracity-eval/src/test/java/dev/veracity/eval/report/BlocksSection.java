package dev.veracity.eval.report;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.trace.CallRecord;
import java.util.List;
import java.util.Optional;

/**
 * A test plug-in's section with blocks, for runs of the method {@code blocks-test} only: each block shows one of the
 * line's gold answers as given (model-like text, so the page must escape it).
 */
public final class BlocksSection implements ReportSectionProvider, QuestionSection {

    @Override
    public List<QuestionSection> sections() {
        return List.of(this);
    }

    @Override
    public String name() {
        return "blocks-test";
    }

    @Override
    public Optional<Section> render(String method, ResultLine line, List<CallRecord> calls) {
        if (!method.equals("blocks-test")) {
            return Optional.empty();
        }
        List<Block> blocks = line.goldOrEmpty().stream().map(g -> new Block("Block of " + g, List.of("cell"),
                List.of(List.of(g)), List.of("under " + g))).toList();
        return Optional.of(new Section("Blocks test", List.of("prediction"), List.of(List.of(line.predictionText())),
                List.of("section note"), blocks));
    }
}
