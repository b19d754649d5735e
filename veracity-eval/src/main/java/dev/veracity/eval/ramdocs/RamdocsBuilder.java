package dev.veracity.eval.ramdocs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.qa.AnswerNormalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds RAMDocs records (Section 3) in the release's format: {@code question}, {@code documents[{text, type:
 * correct|misinfo|noise, answer}]}, {@code disambig_entity}, {@code gold_answers}, {@code wrong_answers}.
 * <ul>
 *   <li>{@link Mode#RANDOM} (Section 3): 1-3 valid answers, 1-3 supporting documents each, 0-2 misinformation
 *       and 0-2 noise documents, all uniformly drawn (capped by what the source has);</li>
 *   <li>{@link Mode#IMBALANCE} (Section 6.2): two valid answers, one with 1 supporting document and the other with
 *       {@code level} (1-3); no misinformation or noise;</li>
 *   <li>{@link Mode#MISINFORMATION} (Section 6.3): two valid answers with one document each and {@code level}
 *       (1-3) misinformation documents; no noise.</li>
 * </ul>
 * Misinformation: a supporting document of one of the chosen answers that contains the answer text (case
 * insensitive) not already used as a correct document, preferably, with every occurrence replaced by one wrong
 * entity of the same {@link AnswerType} taken from other records' answers (one wrong entity per question, as in
 * the release; {@code wrong_answers} lists it once per misinformation document, as the release does). Noise: the
 * record's own noise documents, else documents of other records (irrelevant to the question); answer "unknown".
 * Documents come in the release's order: correct (by answer), misinformation, noise. Records that cannot meet the
 * mode (too few answers or documents, no document containing its answer for misinformation) are skipped. The same
 * source, options and seed always give the same output.
 */
public final class RamdocsBuilder {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Which set to build. */
    public enum Mode { RANDOM, IMBALANCE, MISINFORMATION }

    /**
     * @param mode  the set
     * @param level IMBALANCE: documents of the better-supported answer; MISINFORMATION: misinformation documents
     * @param seed  the random seed
     * @param limit the most records to write (0 = all)
     */
    public record Options(Mode mode, int level, long seed, int limit) {
        public Options {
            if (mode != Mode.RANDOM && (level < 1 || level > 3)) {
                throw new IllegalArgumentException("level must be 1..3 for " + mode.name().toLowerCase(Locale.ROOT) + ", was " + level);
            }
        }

        public static Options random(long seed) {
            return new Options(Mode.RANDOM, 0, seed, 0);
        }
    }

    private RamdocsBuilder() {
    }

    public static List<ObjectNode> build(List<SourceRecord> source, Options options) {
        Random random = new Random(options.seed());
        List<ObjectNode> out = new ArrayList<>();
        for (int r = 0; r < source.size(); r++) {
            if (options.limit() > 0 && out.size() >= options.limit()) {
                break;
            }
            build(source, r, options, random).ifPresent(out::add);
        }
        return out;
    }

    private static Optional<ObjectNode> build(List<SourceRecord> source, int index, Options o, Random random) {
        SourceRecord rec = source.get(index);
        List<SourceRecord.Answer> answers = new ArrayList<>(rec.answers());
        Collections.shuffle(answers, random);
        int nAnswers;
        int[] support;
        int nMisinfo;
        int nNoise;
        switch (o.mode()) {
            case IMBALANCE -> {
                answers.sort((a, b) -> Integer.compare(b.documents().size(), a.documents().size()));
                if (answers.size() < 2 || answers.getFirst().documents().size() < o.level()) {
                    return Optional.empty();
                }
                nAnswers = 2;
                support = new int[] {o.level(), 1};
                nMisinfo = 0;
                nNoise = 0;
            }
            case MISINFORMATION -> {
                if (answers.size() < 2) {
                    return Optional.empty();
                }
                nAnswers = 2;
                support = new int[] {1, 1};
                nMisinfo = o.level();
                nNoise = 0;
            }
            default -> {
                nAnswers = Math.min(answers.size(), 1 + random.nextInt(3));
                support = new int[nAnswers];
                for (int i = 0; i < nAnswers; i++) {
                    support[i] = Math.min(answers.get(i).documents().size(), 1 + random.nextInt(3));
                }
                nMisinfo = random.nextInt(3);
                nNoise = random.nextInt(3);
            }
        }
        List<SourceRecord.Answer> chosen = answers.subList(0, nAnswers);
        ArrayNode docs = JSON.createArrayNode();
        List<String> used = new ArrayList<>();
        ArrayNode gold = JSON.createArrayNode();
        ArrayNode entities = JSON.createArrayNode();
        for (int i = 0; i < nAnswers; i++) {
            SourceRecord.Answer a = chosen.get(i);
            List<String> pool = new ArrayList<>(a.documents());
            Collections.shuffle(pool, random);
            for (String text : pool.subList(0, support[i])) {
                docs.add(doc(text, "correct", a.answer()));
                used.add(text);
            }
            gold.add(a.answer());
            if (!a.entity().isBlank()) {
                entities.add(a.entity());
            }
        }
        ArrayNode wrong = JSON.createArrayNode();
        if (nMisinfo > 0) {
            List<String[]> bases = misinfoBases(chosen, used);
            Collections.shuffle(bases, random);
            String wrongEntity = bases.isEmpty() ? null : wrongEntity(source, index, bases.getFirst()[1], rec, random);
            if (wrongEntity == null || bases.size() < (o.mode() == Mode.MISINFORMATION ? nMisinfo : 1)) {
                if (o.mode() == Mode.MISINFORMATION) {
                    return Optional.empty();
                }
            } else {
                for (String[] base : bases.subList(0, Math.min(nMisinfo, bases.size()))) {
                    docs.add(doc(replace(base[0], base[1], wrongEntity), "misinfo", wrongEntity));
                    wrong.add(wrongEntity);
                }
            }
        }
        List<String> noisePool = new ArrayList<>(rec.noise());
        if (noisePool.size() < nNoise) {
            for (int j = 1; j < source.size() && noisePool.size() < nNoise + 8; j++) {
                SourceRecord other = source.get((index + j * 7) % source.size());
                if (other != rec && !other.question().equals(rec.question())) {
                    other.answers().forEach(a -> noisePool.add(a.documents().getFirst()));
                }
            }
        }
        Collections.shuffle(noisePool, random);
        for (String text : noisePool.subList(0, Math.min(nNoise, noisePool.size()))) {
            docs.add(doc(text, "noise", "unknown"));
        }
        ObjectNode out = JSON.createObjectNode();
        out.put("question", rec.question());
        out.set("documents", docs);
        out.set("disambig_entity", entities);
        out.set("gold_answers", gold);
        out.set("wrong_answers", wrong);
        return Optional.of(out);
    }

    /** (document, answer) pairs whose document contains the answer, unused documents first. */
    private static List<String[]> misinfoBases(List<SourceRecord.Answer> chosen, List<String> used) {
        List<String[]> fresh = new ArrayList<>();
        List<String[]> reused = new ArrayList<>();
        for (SourceRecord.Answer a : chosen) {
            for (String d : a.documents()) {
                if (d.toLowerCase(Locale.ROOT).contains(a.answer().toLowerCase(Locale.ROOT))) {
                    (used.contains(d) ? reused : fresh).add(new String[] {d, a.answer()});
                }
            }
        }
        fresh.addAll(reused);
        return fresh;
    }

    /** A same-type answer of another record that matches none of this record's answers; null when none. */
    static String wrongEntity(List<SourceRecord> source, int index, String answer, SourceRecord rec, Random random) {
        AnswerType type = AnswerType.of(answer);
        List<String> candidates = new ArrayList<>();
        for (int j = 0; j < source.size(); j++) {
            if (j == index) {
                continue;
            }
            for (SourceRecord.Answer a : source.get(j).answers()) {
                String n = AnswerNormalizer.squad(a.answer());
                boolean clash = n.isEmpty() || rec.answers().stream().map(x -> AnswerNormalizer.squad(x.answer()))
                        .anyMatch(g -> g.contains(n) || n.contains(g));
                if (!clash && AnswerType.of(a.answer()) == type && !candidates.contains(a.answer())) {
                    candidates.add(a.answer());
                }
            }
        }
        if (candidates.isEmpty()) {
            return null;
        }
        return candidates.get(random.nextInt(candidates.size()));
    }

    static String replace(String text, String answer, String wrong) {
        Matcher m = Pattern.compile(Pattern.quote(answer), Pattern.CASE_INSENSITIVE).matcher(text);
        return m.replaceAll(Matcher.quoteReplacement(wrong));
    }

    private static ObjectNode doc(String text, String type, String answer) {
        ObjectNode d = JSON.createObjectNode();
        d.put("text", text);
        d.put("type", type);
        d.put("answer", answer);
        return d;
    }
}
