/**
 * The live screen's part of the viewer script: it follows the page's event stream and puts each
 * snapshot's texts into the `[data-live]` elements through textContent (never markup), rebuilds
 * the latest-finished list from text nodes, and closes the stream when the run ends (an open
 * EventSource would reconnect forever).
 */
export const LIVE_SCRIPT = `(function () {
'use strict';
var node = document.getElementById('data');
var data = node ? JSON.parse(node.textContent || 'null') : null;
if (!data || data.kind !== 'live' || data.finished || typeof EventSource !== 'function') return;
var state = document.querySelector('[data-live-state]');
function say(text) { if (state) state.textContent = text; }
function apply(snapshot) {
  Object.keys(snapshot.fields).forEach(function (name) {
    Array.prototype.forEach.call(document.querySelectorAll('[data-live="' + name + '"]'), function (el) {
      el.textContent = snapshot.fields[name];
    });
  });
  var bar = document.querySelector('progress[data-live-progress]');
  if (bar) {
    bar.max = snapshot.total === null ? Math.max(snapshot.done, 1) : snapshot.total;
    bar.value = snapshot.done;
  }
  var list = document.querySelector('[data-live-latest]');
  if (list && snapshot.latest.length > 0) {
    while (list.firstChild) list.removeChild(list.firstChild);
    snapshot.latest.forEach(function (trial) {
      var item = document.createElement('li');
      item.setAttribute('data-outcome', trial.outcome);
      item.textContent = trial.text;
      list.appendChild(item);
    });
  }
}
var source = new EventSource(data.events);
source.addEventListener('progress', function (event) {
  apply(JSON.parse(event.data));
  say('Updating as trials finish.');
});
source.addEventListener('end', function () {
  source.close();
  say('The run has ended; these are its final counts.');
  document.documentElement.setAttribute('data-live-ended', '');
});
source.addEventListener('gone', function () {
  source.close();
  say('The experiment is no longer in the store.');
});
source.onerror = function () { say('Connection to the viewer lost; retrying…'); };
})();
`;
