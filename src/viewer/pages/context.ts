import type { ServedPage } from '../../reporters/html/page.ts';
import type { ExperimentStore } from '../../store/types.ts';
import { links, SCRIPT_PATH } from '../routes.ts';

/** What a screen needs: the store to read, and the token when this browser may write. */
export interface ScreenContext {
  readonly store: ExperimentStore;
  /** The server's token, present only when the request carried it (its cookie): forms embed it. */
  readonly writeToken?: string | undefined;
}

const NAV =
  '<nav class="viewer" style="padding:.5rem 1rem;border-bottom:1px solid #ccc">' +
  `<a href="${links.experiments()}">Experiments</a> · <a href="${links.timeline()}">Timeline</a>` +
  '</nav>';

/** Every viewer page: the reporters' shell with the served script and the viewer's navigation. */
export const SERVED: ServedPage = { scriptSrc: SCRIPT_PATH, nav: NAV };

/** A page's answer: status and HTML. */
export interface Screen {
  readonly status: number;
  readonly html: string;
}
