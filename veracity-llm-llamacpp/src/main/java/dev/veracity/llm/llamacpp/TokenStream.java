package dev.veracity.llm.llamacpp;

import de.kherud.llama.LlamaIterator;
import de.kherud.llama.LlamaOutput;

/**
 * The pieces of one generation as llama.cpp streams them. An interface so that {@link GenerationLoop} can be
 * tested without a model.
 */
interface TokenStream {

    /**
     * One streamed result.
     *
     * @param text  the text it adds (may be empty)
     * @param last  true for llama.cpp's final result, which carries no token of its own
     */
    record Piece(String text, boolean last) {
    }

    boolean hasNext();

    /** Blocks until llama.cpp has decoded the next token (or finished). */
    Piece next();

    /** Stops generation early and frees llama.cpp's slot; no more pieces are read after it. */
    void cancel();

    /** The binding's streaming iterator. */
    static TokenStream of(LlamaIterator iterator) {
        return new TokenStream() {
            @Override
            public boolean hasNext() {
                return iterator.hasNext();
            }

            @Override
            public Piece next() {
                LlamaOutput out = iterator.next();
                // The iterator turns hasNext off when it has read the final result.
                return new Piece(out.text, !iterator.hasNext());
            }

            @Override
            public void cancel() {
                iterator.cancel();
            }
        };
    }
}
