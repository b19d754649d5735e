package dev.veracity.methods.march;

import dev.veracity.qa.Document;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The case study of Appendix C.1 (Guadeloupe parkinsonism), for the demo and the tests, and a scripted model that
 * behaves as the paper's model does there.
 *
 * <p>The question and the Solver's response are the paper's (its "n1." list markers restored as line breaks). The
 * paper prints each document's first and last sentence and omits the middle; we restore, in the middle, the one
 * sentence the Checker's evidence cites (e.g. "Document-5 states that 52% of PDC patients had hallucinations") —
 * a reconstruction, marked here, since the full abstracts are not in the paper.
 *
 * <p>{@link #respond(String)} is the simulated model: it answers the Solver and Proposer prompts of this case with
 * the paper's texts, and answers every Checker prompt by reading the documents and questions in that prompt
 * (keyword overlap to find the sentence, then its number; "lower"/"upper" pick the least / greatest of the
 * best-matching sentences' numbers), so changing a document changes the Checker's answer.
 */
public final class AppendixC {

    public static final String QUESTION = "Describe clinical presentation of Parkinsonism with dementia of Guadeloupe syndrome.";

    public static final List<Document> DOCUMENTS = List.of(
            Document.of("1", "", "STUDY OBJECTIVE: To describe sleep characteristics and rapid eye movement (REM) sleep behavior "
                    + "disorder in patients with Guadeloupean atypical parkinsonism (Gd-PSP). REM sleep behavior disorder was "
                    + "found in 78% of patients with Gd-PSP. Subjects with idiopathic REM sleep behavior disorder should avoid "
                    + "eating sour sop."),
            Document.of("2", "", "We characterize the clinical features of Parkinson's syndrome on Guadeloupe and describe possible "
                    + "environmental causes. The development of atypical parkinsonism in Guadeloupe and probably elsewhere, "
                    + "could result from synergistic toxicity, but acetogenins are probably the most potent neurotoxin, acting "
                    + "as mitochondrial complex I inhibitor."),
            Document.of("3", "", "In Guadeloupe, there is an abnormally high frequency of atypical parkinsonism. Hallucinations "
                    + "occurred in 59% of patients with the PSP-like syndrome. Dysautonomia was present in 50% of patients with "
                    + "Guadeloupe syndrome. In conclusion, atypical Guadeloupean parkinsonism comprises two forms of "
                    + "parkinsonism and dementia that differ clinically by the presence of oculomotor signs, but have similar "
                    + "cognitive profiles and neuroimaging features, suggesting that they may constitute a single disease "
                    + "entity, and both were similarly exposed to annonaceous neurotoxins, notably annonacin."),
            Document.of("4", "", "An unusually high frequency of atypical Parkinson syndrome has been delineated over the last "
                    + "years in the French West Indies. Guadeloupean parkinsonism may prove to be a tauopathy identical or "
                    + "closely related to PSP."),
            Document.of("5", "", "INTRODUCTION: On Guadeloupe, atypical parkinsonism is abnormally frequent, and represents 75% "
                    + "of progressive parkinsonism while Parkinson's disease (PD) accounts for only 25%, which is an inversed "
                    + "percentage in comparison with Europe. Hallucinations were reported in 52% of PDC patients. This "
                    + "hypothesis is in keeping with epidemiologic data and experimental studies showing neuronal loss after "
                    + "exposure to isoquinolines or acetogenins."),
            Document.of("6", "", "Steele, Richardson and Olszweski in 1964 described a distinctive clinical and pathological "
                    + "entity they called progressive supranuclear palsy (PSP). Future studies will confirm if Guadeloupean "
                    + "Parkinsonism is truly a geographic focus of PSP, and if dietary factors account for both."),
            Document.of("7", "", "On the French West Indian island of Guadeloupe, atypical parkinsonism is frequent. Consistent "
                    + "with this view, chronic administration of annonacin to rats through Alzet osmotic minipumps showed that "
                    + "annonacin was able to reproduce the brain lesions characteristic of the human disease."),
            Document.of("8", "", "Atypical parkinsonism is extremely frequent in Guadeloupe and may have an environmental cause. "
                    + "Cortical myoclonus was found in 89% of Gd-PSP patients. This electrophysiological study, added to "
                    + "previous clinical, neuropsychological and neuroradiological studies, has enriched the characterization "
                    + "of Guadeloupean atypical parkinsonism, which thus appears to be a new clinical entity."));

    public static final String SOLVER_RESPONSE = """
            The clinical presentation of Parkinsonism with dementia in Guadeloupe syndrome includes the following features:
            1. **Levodopa Resistance**: Patients exhibit levodopa-resistant parkinsonism, distinguishing them from typical Parkinson's disease.
            2. **Fronto-Subcortical Dementia**: Cognitive deficits are primarily fronto-subcortical, characterized by frontolimbic cognitive impairment, hallucinations (52–59%), and dementia with features such as dysautonomia (50%) and tremor (>50%).
            3. **Oculomotor Abnormalities**: Some patients display supranuclear oculomotor dysfunction, including reduced vertical saccade velocity and impaired antisaccades. However, oculomotor dysfunction is not universal, as seen in the parkinsonism-dementia complex (PDC) subgroup.
            4. **Tremor and Myoclonus**: Jerky tremor and cortical myoclonus (89% of cases) are prominent, with myoclonus originating from cortical regions.
            5. **REM Sleep Behavior Disorder (RBD)**: 78% of patients with Guadeloupean atypical parkinsonism (Gd-PSP) experience RBD, often preceding parkinsonism symptoms by years.
            6. **Neuroimaging Findings**: Cerebral atrophy is common, with enlargement of the third ventricle and T2-hypointensity in the basal ganglia (particularly substantia nigra). Neuronal loss affects the substantia nigra, striatum, and frontal cortex, alongside tau-containing lesions.
            7. **Environmental Factor**: Higher consumption of soursop (Annona muricata), a plant containing the mitochondrial complex I inhibitor annonacin, is significantly associated with the syndrome.
            These features collectively define Guadeloupe syndrome as a distinct clinical entity characterized by parkinsonism, dementia, and unique neuroimaging and environmental correlates.""";

    public static final String PROPOSER_OUTPUT = """
            - Question: What is the lower percentage range of patients with Guadeloupe syndrome experiencing hallucinations? [Answer: 52]
            - Question: What is the upper percentage range of patients with Guadeloupe syndrome experiencing hallucinations? [Answer: 59]
            - Question: What percentage of patients with Guadeloupe syndrome have dysautonomia? [Answer: 50]
            - Question: What percentage of patients with Guadeloupe syndrome have cortical myoclonus? [Answer: 89]
            - Question: What percentage of patients with Guadeloupe syndrome experience REM Sleep Behavior Disorder (RBD)? [Answer: 78]""";

    /** The claimed answers of the five pairs, in order. */
    public static final List<String> CLAIMED = List.of("52", "59", "50", "89", "78");

    private static final Pattern QUESTION_LINE = Pattern.compile("(?m)^- Question (\\d+): (.*)$");
    private static final Pattern DOC_HEADER = Pattern.compile("(?m)^Document-(\\d+)$");
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])(\\d+(?:\\.\\d+)?)(%?)");
    private static final Set<String> STOP = Set.of("what", "which", "when", "where", "with", "have", "does", "that",
            "this", "there", "their", "from", "many", "much", "number", "percentage", "lower", "upper", "range",
            "experience", "experiencing", "patients", "value", "statement", "blank", "fills", "were", "been", "the",
            "and", "for", "are", "was", "how", "who");

    private AppendixC() {
    }

    /** The simulated model: a reply to any MARCH prompt. */
    public static String respond(String prompt) {
        String p = prompt == null ? "" : prompt;
        if (p.contains("You are a data validation expert")) {
            return checker(p);
        }
        if (p.contains("You are a data annotation expert")) {
            String response = after(p, "Model Response:");
            return response.contains("hallucinations (52–59%)") ? PROPOSER_OUTPUT : genericProposer(response);
        }
        if (p.contains("You must respond based strictly")) {
            return p.contains("Guadeloupe syndrome.") ? SOLVER_RESPONSE : genericSolver(p);
        }
        return "I don't know.";
    }

    /** The Checker: answers each question of the prompt from the documents of the prompt, nothing else. */
    public static String checker(String prompt) {
        int refs = prompt.lastIndexOf("Reference Materials:");
        int qs = prompt.lastIndexOf("\nQuestions:");
        if (refs < 0 || qs < refs) {
            return "I cannot find the questions.";
        }
        List<String[]> sentences = new ArrayList<>(); // {document number, sentence}
        String docs = prompt.substring(refs, qs);
        Matcher h = DOC_HEADER.matcher(docs);
        List<int[]> heads = new ArrayList<>();
        while (h.find()) {
            heads.add(new int[] {Integer.parseInt(h.group(1)), h.start(), h.end()});
        }
        for (int i = 0; i < heads.size(); i++) {
            int end = i + 1 < heads.size() ? heads.get(i + 1)[1] : docs.length();
            for (String s : docs.substring(heads.get(i)[2], end).strip().split("(?<=[.!?])\\s+")) {
                sentences.add(new String[] {Integer.toString(heads.get(i)[0]), s.strip()});
            }
        }
        Map<String, Integer> frequency = new HashMap<>();
        for (String[] s : sentences) {
            words(s[1]).forEach(w -> frequency.merge(w, 1, Integer::sum));
        }
        StringBuilder out = new StringBuilder();
        Matcher q = QUESTION_LINE.matcher(prompt.substring(qs));
        while (q.find()) {
            out.append(q.group(1)).append(". Evidence: ").append(answer(q.group(2), sentences, frequency)).append('\n');
        }
        return out.toString().strip();
    }

    private static String answer(String question, List<String[]> sentences, Map<String, Integer> frequency) {
        Set<String> keys = words(question);
        double best = 0;
        List<Double> scores = new ArrayList<>();
        for (String[] s : sentences) {
            double score = 0;
            if (NUMBER.matcher(s[1]).find()) {
                for (String w : words(s[1])) {
                    if (keys.contains(w)) {
                        score += 1.0 / frequency.getOrDefault(w, 1);
                    }
                }
            }
            scores.add(score);
            best = Math.max(best, score);
        }
        if (best <= 0) {
            return "The materials do not contain this information, therefore I cannot answer. Answer: Cannot answer";
        }
        String lq = question.toLowerCase(Locale.ROOT);
        boolean lower = lq.contains("lower");
        boolean upper = lq.contains("upper");
        int top = scores.indexOf(best);
        // "lower" / "upper": among the sentences that share the best sentence's rarest matching word.
        String rarest = null;
        for (String w : words(sentences.get(top)[1])) {
            if (keys.contains(w) && (rarest == null || frequency.get(w) < frequency.get(rarest))) {
                rarest = w;
            }
        }
        String[] chosen = null;
        double chosenValue = 0;
        for (int i = 0; i < sentences.size(); i++) {
            boolean candidate = lower || upper ? scores.get(i) > 0 && words(sentences.get(i)[1]).contains(rarest) : i == top;
            if (!candidate) {
                continue;
            }
            Matcher n = NUMBER.matcher(sentences.get(i)[1]);
            while (n.find()) {
                if (question.contains(n.group(1)) || (lq.contains("percentage") && n.group(2).isEmpty())) {
                    continue;
                }
                double v = Double.parseDouble(n.group(1));
                if (chosen == null || (lower && v < chosenValue) || (upper && v > chosenValue)) {
                    chosen = new String[] {sentences.get(i)[0], sentences.get(i)[1], n.group(1)};
                    chosenValue = v;
                }
                break;
            }
        }
        if (chosen == null) {
            return "The materials do not contain this information, therefore I cannot answer. Answer: Cannot answer";
        }
        return "Document-" + chosen[0] + " states: \"" + chosen[1] + "\" Answer: " + chosen[2];
    }

    private static Set<String> words(String s) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : s.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (w.length() >= 3 && !STOP.contains(w) && !w.chars().allMatch(Character::isDigit)) {
                out.add(w);
            }
        }
        return out;
    }

    /** Any other question: the first passage sentence that holds a number (else the first sentence). */
    private static String genericSolver(String prompt) {
        String passages = between(prompt, "Passages:", "\nQuery:");
        String first = null;
        for (String s : passages.replaceAll("(?m)^Document-\\d+$", "").strip().split("(?<=[.!?])\\s+")) {
            String t = s.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (first == null) {
                first = t;
            }
            if (NUMBER.matcher(t).find()) {
                return "According to the passages: " + t;
            }
        }
        return first == null ? "The passages do not say." : "According to the passages: " + first;
    }

    /** Any other response: one question per number in it (at most 3), asking for the number in its sentence. */
    private static String genericProposer(String response) {
        StringBuilder out = new StringBuilder();
        int pairs = 0;
        for (String s : response.split("(?<=[.!?])\\s+")) {
            Matcher n = NUMBER.matcher(s);
            while (n.find() && pairs < 3) {
                String blanked = (s.substring(0, n.start()) + "what number" + s.substring(n.end())).replaceAll("\\s+", " ").strip();
                out.append("- Question: In the statement \"").append(blanked.replace("According to the passages: ", ""))
                        .append("\", what is the number? [Answer: ").append(n.group(1)).append("]\n");
                pairs++;
            }
        }
        return pairs == 0 ? "- Question: How many passages support the response? [Answer: 1]" : out.toString().strip();
    }

    private static String after(String s, String marker) {
        int i = s.lastIndexOf(marker);
        return i < 0 ? "" : s.substring(i + marker.length()).strip();
    }

    private static String between(String s, String from, String to) {
        int i = s.indexOf(from);
        int j = s.lastIndexOf(to);
        return i < 0 ? s : s.substring(i + from.length(), j > i ? j : s.length());
    }
}
