export { metricHeading, renderTimelineConsole } from './console.ts';
export { renderTimelineHtml } from './html.ts';
export { renderTimelineMarkdown } from './markdown.ts';
export { sparkline } from './sparkline.ts';
