package dev.veracity.eval.report;

import java.util.List;

/**
 * Contributes sections to the report's question pages (a service: list the implementation in
 * {@code META-INF/services/dev.veracity.eval.report.ReportSectionProvider}), e.g. a plug-in method's verdicts. The
 * built-in sections come the same way ({@link BuiltInReportSections}) and are shown first.
 */
public interface ReportSectionProvider {

    /** The sections, in the order a page shows them. */
    List<QuestionSection> sections();
}
