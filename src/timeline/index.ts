export {
  buildTimeline,
  DEFAULT_TIMELINE_METRICS,
  type Timeline,
  type TimelineCell,
  type TimelineOptions,
  type TimelinePoint,
} from './timeline.ts';
