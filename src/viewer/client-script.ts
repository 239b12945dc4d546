import { CLIENT_SCRIPT } from '../reporters/html/client-script.ts';
import { LIVE_SCRIPT } from './live-script.ts';

/**
 * The viewer's one script, served from its own origin: the HTML report's script (tables, traces)
 * and two additions. A page whose data names `open` opens the trace of that row of its table
 * (links from a comparison land on the trace), and keys 1–4 choose a level in the focused rubric dimension.
 * Like the report's script it writes text only through text nodes.
 */
export const VIEWER_SCRIPT = `${CLIENT_SCRIPT}
(function () {
'use strict';
var node = document.getElementById('data');
var data = node ? JSON.parse(node.textContent || 'null') : null;
if (data && typeof data.open === 'number') {
  var opener = document.querySelectorAll('#trials [data-trace-src]')[data.open];
  if (opener) opener.click();
}
document.addEventListener('keydown', function (event) {
  if (!/^[1-4]$/.test(event.key)) return;
  var active = document.activeElement;
  if (active && active.tagName === 'INPUT' && active.type !== 'radio') return;
  var set = active && active.closest ? active.closest('fieldset') : null;
  if (!set) return;
  var choice = set.querySelector('input[data-key="' + event.key + '"]');
  if (choice) { choice.checked = true; choice.focus(); event.preventDefault(); }
});
})();
${LIVE_SCRIPT}`;
