import { randomBytes } from 'node:crypto';
import { CLIENT_SCRIPT } from './client-script.ts';
import { escapeHtml, jsonForScript } from './escape.ts';
import { PAGE_CSS } from './styles.ts';

/** A block of the page. `html` is markup built by these helpers: everything in it is already escaped. */
export interface PageSection {
  readonly id: string;
  readonly title: string;
  readonly html: string;
}

export interface PageInput {
  readonly title: string;
  /** One line under the title (escaped). */
  readonly subtitle?: string;
  readonly sections: readonly PageSection[];
  /** Data for the client script, embedded as JSON that cannot end its script element. */
  readonly data?: unknown;
  /** Fixed nonce for reproducible output in tests; random otherwise. */
  readonly nonce?: string;
  /** Served by the viewer instead of written as a file: see `ServedPage`. */
  readonly served?: ServedPage;
}

/**
 * A page the viewer serves: the script comes from the server (`script-src 'self'`, no inline
 * script at all), forms may post back to it, and `nav` (escaped markup) heads the page.
 */
export interface ServedPage {
  readonly scriptSrc: string;
  readonly nav: string;
}

/** How a page built from reporter parts (comparison, timeline) is shelled: a fixed nonce, or served. */
export interface PageShellOptions {
  readonly nonce?: string;
  readonly served?: ServedPage;
  /** Sections added at the end (the viewer's links to traces and experiments). */
  readonly sections?: readonly PageSection[];
}

/** The CSP of a served page (the server also sends it as a header, adding `frame-ancestors`, which a meta tag cannot carry). */
export const SERVED_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'self'";

/**
 * The self-contained page shell: inline CSS, inline SVG, one inline script allowed by a nonce, and a
 * CSP that forbids every other script, style source, font, frame and network fetch.
 */
export function renderPage(input: PageInput): string {
  const nonce = input.nonce ?? randomBytes(16).toString('base64');
  const { served } = input;
  // base-uri and form-action are not covered by default-src; closing them too leaves no way out.
  const csp =
    served === undefined
      ? `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'`
      : SERVED_PAGE_CSP;
  const script =
    served === undefined
      ? `<script nonce="${escapeHtml(nonce)}">${CLIENT_SCRIPT}</script>`
      : `<script src="${escapeHtml(served.scriptSrc)}"></script>`;
  const sections = input.sections
    .map(
      (s) =>
        `<section id="${escapeHtml(s.id)}" aria-labelledby="${escapeHtml(s.id)}-title">` +
        `<h2 id="${escapeHtml(s.id)}-title">${escapeHtml(s.title)}</h2>${s.html}</section>`,
    )
    .join('\n');
  const subtitle = input.subtitle === undefined ? '' : `<p>${escapeHtml(input.subtitle)}</p>`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    // An empty data: icon stops the browser asking for /favicon.ico.
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(input.title)}</title>`,
    `<style>${PAGE_CSS}</style>`,
    '</head>',
    '<body>',
    served === undefined ? '' : served.nav,
    `<header class="page"><h1>${escapeHtml(input.title)}</h1>${subtitle}</header>`,
    `<main>\n${sections}\n</main>`,
    `<script type="application/json" id="data">${jsonForScript(input.data ?? null)}</script>`,
    script,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
