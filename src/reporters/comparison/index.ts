export { type ComparisonConsoleOptions, type Paint, renderComparisonConsole } from './console.ts';
export { renderComparisonHtml } from './html.ts';
export { type ComparisonMarkdownOptions, renderComparisonMarkdown } from './markdown.ts';
