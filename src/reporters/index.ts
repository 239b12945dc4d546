export { displayWidth, escapeControl, truncateToWidth } from '../util/terminal-text.ts';
export { createConsoleReporter, renderConsole } from './console.ts';
export { CSV_HEADER, createCsvReporter, csvField, neutralizeFormula, renderCsv } from './csv.ts';
export {
  createHtmlReporter,
  escapeHtml,
  histogram,
  htmlReporter,
  lineChart,
  renderExperimentHtml,
  renderPage,
  scatter,
} from './html/index.ts';
export { createJsonReporter, renderJson } from './json.ts';
export { createJsonlReporter, renderJsonl } from './jsonl.ts';
export { createJunitReporter, escapeXml, renderJunit, stripIllegalXml } from './junit.ts';
export { createMarkdownReporter, MAX_FAILURE_ROWS, markdownCell, renderMarkdown } from './markdown.ts';
export {
  type BuiltinReporterName,
  builtinReporters,
  getReporter,
  type ReporterEntry,
  registerReporter,
  reporterForFile,
  reporterNames,
} from './registry.ts';
export type { RecordPages, ReporterV1, ReportOptions, ReportWriter, TrialGlance } from './types.ts';
