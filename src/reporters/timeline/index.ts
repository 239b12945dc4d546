export { metricHeading, renderTimelineConsole, renderTimelineMarkdown } from './console.ts';
export { renderTimelineHtml } from './html.ts';
export { sparkline } from './sparkline.ts';
