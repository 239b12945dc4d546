import type { DashboardData } from './types.ts';

/** Renders the orders dashboard into `root`; see REQUIREMENTS.md. */
export function renderDashboard(_root: Element, _data: DashboardData): void {
  throw new Error('not implemented');
}
