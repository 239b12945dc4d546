/**
 * The page's one script (runs under a CSP nonce). It reads data only from the JSON element and
 * writes text only through text nodes, never innerHTML, so agent text cannot become markup.
 * Generic parts: `table[data-table]` gets sorting on `th[data-sort]` and the filters that name it
 * (`data-filter-text`, `data-filter-outcome`); `button[data-trial]` opens a trial of the data in
 * `#trace-panel`, `a[data-trace-src]` fetches one (JSON from the viewer) into it, and
 * every `[data-trace-of=i]` shows trial i's trace when the page loads.
 */
export const CLIENT_SCRIPT = `(function () {
'use strict';
var dataNode = document.getElementById('data');
var data = dataNode ? JSON.parse(dataNode.textContent || 'null') : null;

function el(tag, className, children) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  (children || []).forEach(function (child) {
    if (child === null || child === undefined) return;
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  });
  return node;
}
function num(value, digits) {
  if (value === null || value === undefined) return 'n/a';
  return String(Number(Number(value).toPrecision(digits || 3)));
}
function usd(value) {
  if (value === null || value === undefined) return 'n/a';
  return '$' + num(value, 3);
}

function setupTable(table) {
  var id = table.id;
  var body = table.tBodies[0];
  if (!body) return;
  var rows = Array.prototype.slice.call(body.rows);
  var text = document.querySelector('input[data-filter-text="' + id + '"]');
  var outcome = document.querySelector('select[data-filter-outcome="' + id + '"]');
  var count = document.querySelector('[data-filter-count="' + id + '"]');
  function apply() {
    var query = text ? text.value.trim().toLowerCase() : '';
    var wanted = outcome ? outcome.value : '';
    var shown = 0;
    rows.forEach(function (row) {
      var match = (!query || (row.getAttribute('data-search') || '').indexOf(query) !== -1) &&
        (!wanted || row.getAttribute('data-outcome') === wanted);
      row.hidden = !match;
      if (match) shown += 1;
    });
    if (count) count.textContent = shown + ' of ' + rows.length + ' shown';
  }
  if (text) text.addEventListener('input', apply);
  if (outcome) outcome.addEventListener('change', apply);
  apply();

  Array.prototype.forEach.call(table.querySelectorAll('th[data-sort]'), function (th) {
    var button = th.querySelector('button');
    if (!button) return;
    button.addEventListener('click', function () {
      var column = th.cellIndex;
      var numeric = th.getAttribute('data-sort') === 'number';
      var ascending = th.getAttribute('aria-sort') !== 'ascending';
      Array.prototype.forEach.call(table.querySelectorAll('th[aria-sort]'), function (other) {
        other.removeAttribute('aria-sort');
      });
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      var keyed = rows.map(function (row, index) {
        var cell = row.cells[column];
        var raw = cell ? cell.getAttribute('data-value') : null;
        var key = raw === null || raw === '' ? null : numeric ? Number(raw) : raw.toLowerCase();
        return { row: row, key: key, index: index };
      });
      keyed.sort(function (a, b) {
        // Missing values go last in both directions; ties keep the original order.
        if (a.key === null || b.key === null) return a.key === b.key ? a.index - b.index : a.key === null ? 1 : -1;
        var order = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
        return (ascending ? order : -order) || a.index - b.index;
      });
      keyed.forEach(function (entry) { body.appendChild(entry.row); });
    });
  });
}
Array.prototype.forEach.call(document.querySelectorAll('table[data-table]'), setupTable);

function table(headers, rows) {
  if (rows.length === 0) return el('p', 'none', ['none']);
  var head = el('tr', null, headers.map(function (h) { return el('th', null, [h]); }));
  var body = rows.map(function (cells) {
    return el('tr', null, cells.map(function (c) { return el('td', null, [c]); }));
  });
  return el('table', null, [el('thead', null, [head]), el('tbody', null, body)]);
}
function pre(text, omitted) {
  var box = el('div', null, [el('pre', null, [text])]);
  if (omitted > 0) box.appendChild(el('p', 'note', ['(' + omitted + ' more characters not shown)']));
  return box;
}
function section(title, content) {
  return el('div', 'trace-part', [el('h3', null, [title]), content]);
}
/** A table section, or nothing when it has no rows: an empty trace part says nothing. */
function rowsSection(parts, title, headers, rows) {
  if (rows.length > 0) parts.push(section(title, table(headers, rows)));
}

/** The workspace diff: the files, then the diff in a <details> (closed when long or cut). */
function diffView(diff) {
  var box = el('div', 'workspace-diff', []);
  if (diff.files.length === 0) {
    box.appendChild(el('p', 'note', ['No file changed.']));
    return box;
  }
  box.appendChild(table(['status', 'file'], diff.files.map(function (f) { return [f.status, f.path]; })));
  var summary = el('summary', null, ['Diff (' + diff.lines + ' lines' + (diff.omitted_bytes > 0 ? ', cut' : '') + ')']);
  var details = el('details', null, [summary, el('pre', 'diff', [diff.text])]);
  details.open = diff.open;
  box.appendChild(details);
  if (diff.omitted_bytes > 0) box.appendChild(el('p', 'note', ['(' + diff.omitted_bytes + ' more bytes of the diff not shown)']));
  return box;
}

function renderTrial(trial) {
  var parts = [
    el('h2', null, ['Trace: ' + trial.task_id + ' (epoch ' + trial.epoch + ') ', el('span', 'badge ' + trial.outcome, [trial.outcome])]),
    el('p', 'meta', ['run ' + trial.run_id + ' · ' + num(trial.duration_seconds) + ' s · ' + usd(trial.cost_usd) + (trial.unpriced_calls > 0 ? ' partial (' + trial.unpriced_calls + ' calls unpriced)' : '') + ' · attempts ' + trial.attempts]),
  ];
  // Input, expected and output side by side, so a failed exact or regex case reads at a glance.
  var compared = [];
  if (trial.input) compared.push(section('Input', pre(trial.input.text, trial.input.omitted)));
  if (trial.expected) compared.push(section('Expected', pre(trial.expected.text, trial.expected.omitted)));
  compared.push(section('Output', pre(trial.output.text, trial.output.omitted)));
  parts.push(el('div', 'side-by-side', compared));
  if (trial.error) parts.push(section('Error', pre(trial.error, 0)));
  if (trial.workspace_diff) parts.push(section('Changes against the starter', diffView(trial.workspace_diff)));
  rowsSection(parts, 'Annotations', ['label', 'note', 'by', 'when'], (trial.annotations || []).map(function (a) {
    return [a.label, a.note, a.author, a.created_at.slice(0, 19).replace('T', ' ')];
  }));
  rowsSection(parts, 'Evaluations', ['evaluator', 'score', 'passed', 'explanation'], trial.evaluations.map(function (e) {
    return [e.evaluator, num(e.score), e.passed ? 'yes' : 'no', e.error ? e.explanation + ' (error: ' + e.error + ')' : e.explanation];
  }));
  if (trial.criteria.length > 0) {
    var criteria = el('div', null, [table(['criterion', 'verification', 'status', 'score', 'explanation'], trial.criteria.map(function (c) {
      return [c.id, c.verification, c.status, num(c.score), c.explanation];
    }))]);
    trial.criteria.forEach(function (c) {
      if (c.grades.length > 0) {
        criteria.appendChild(el('p', 'meta', ['Grades for ' + c.id]));
        criteria.appendChild(table(['dimension', 'level', 'score', 'grader', 'rationale'], c.grades.map(function (g) {
          return [g.dimension, String(g.level), num(g.score), g.grader + ' (' + g.grader_kind + ')', g.rationale];
        })));
      }
      if (c.output_tail) {
        // Each command's output is labelled with its criterion: several blocks follow one table.
        criteria.appendChild(el('p', 'meta output-label', ['Output of ' + c.id + ' (' + c.status + ')']));
        criteria.appendChild(pre(c.output_tail, 0));
      }
    });
    parts.push(section('Criteria', criteria));
  }
  rowsSection(parts, 'Agent calls by role', ['role', 'calls', 'tokens in', 'tokens out', 'cost'], trial.by_role.map(function (r) {
    return [r.role, String(r.calls), num(r.tokens_in, 6), num(r.tokens_out, 6), usd(r.cost_usd)];
  }));
  rowsSection(parts, 'Agent calls', ['role', 'model', 'tokens in', 'tokens out', 'cost', 'seconds', 'error'], trial.agent_calls.map(function (a) {
    return [a.role, a.model || '', num(a.tokens_in, 6), num(a.tokens_out, 6), usd(a.cost_usd), num(a.duration_seconds), a.error || ''];
  }));
  rowsSection(parts, 'Agent invocations', ['agent', 'seconds', 'error'], trial.agent_invocations.map(function (a) {
    return [a.name, num(a.duration_seconds), a.error || ''];
  }));
  rowsSection(parts, 'Tool calls', ['tool', 'status', 'seconds', 'arguments', 'result'], trial.tool_calls.map(function (t) {
    return [t.tool_name, t.status, num(t.duration), pre(t.args.text, t.args.omitted), t.result ? pre(t.result.text, t.result.omitted) : ''];
  }));
  rowsSection(parts, 'Operator prompts', ['kind', 'role', 'text'], trial.prompts.map(function (p) {
    return [p.kind, p.role || '', p.text || ''];
  }));
  rowsSection(parts, 'Human touchpoints', ['action', 'kind', 'minutes', 'note'], trial.human.map(function (h) {
    return [h.action, h.kind, num(h.minutes), h.note || ''];
  }));
  rowsSection(parts, 'Circuit breakers', ['type', 'trigger', 'resolution'], trial.circuit_breakers.map(function (b) {
    return [b.type, b.trigger || '', b.resolution || ''];
  }));
  rowsSection(parts, 'Malformed events', ['line', 'error'], trial.malformed_events.map(function (m) {
    return [String(m.line), m.error];
  }));
  var absent = [
    ['agent calls', trial.agent_calls.length], ['tool calls', trial.tool_calls.length],
    ['operator prompts', trial.prompts.length], ['human touchpoints', trial.human.length],
    ['circuit breakers', trial.circuit_breakers.length], ['malformed events', trial.malformed_events.length]
  ].filter(function (entry) { return entry[1] === 0; }).map(function (entry) { return entry[0]; });
  if (absent.length > 0) parts.push(el('p', 'note', ['Not reported in this trial: ' + absent.join(', ') + '.']));
  return parts;
}

// Traces laid out by the page itself (side by side): each [data-trace-of=i] shows trial i.
Array.prototype.forEach.call(document.querySelectorAll('[data-trace-of]'), function (box) {
  var trial = data && data.trials ? data.trials[Number(box.getAttribute('data-trace-of'))] : null;
  if (trial) renderTrial(trial).forEach(function (node) { box.appendChild(node); });
});

var panel = document.getElementById('trace-panel');
function showInPanel(opener, trial) {
  while (panel.firstChild) panel.removeChild(panel.firstChild);
  var close = el('button', 'trace', ['close']);
  close.addEventListener('click', function () { panel.hidden = true; opener.focus(); });
  panel.appendChild(close);
  if (typeof trial === 'string') panel.appendChild(el('p', 'fail', [trial]));
  else renderTrial(trial).forEach(function (node) { panel.appendChild(node); });
  panel.hidden = false;
  panel.scrollIntoView({ block: 'start' });
}
document.addEventListener('click', function (event) {
  var target = event.target;
  var button = target && target.closest ? target.closest('button[data-trial]') : null;
  if (button && panel && data && data.trials) {
    var trial = data.trials[Number(button.getAttribute('data-trial'))];
    if (!trial) return;
    panel.setAttribute('data-trial', String(button.getAttribute('data-trial')));
    showInPanel(button, trial);
    return;
  }
  // A served page loads a trace when it is opened; a modified click opens its page instead.
  var link = target && target.closest ? target.closest('a[data-trace-src]') : null;
  if (!link || !panel || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  var src = link.getAttribute('data-trace-src');
  panel.setAttribute('data-trial', src);
  panel.setAttribute('aria-busy', 'true');
  fetch(src, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then(function (response) {
      if (!response.ok) throw new Error('the viewer answered ' + response.status);
      return response.json();
    })
    .then(function (trial) { if (panel.getAttribute('data-trial') === src) showInPanel(link, trial); })
    .catch(function (error) { showInPanel(link, 'Could not load this trace: ' + error.message); })
    .then(function () { panel.removeAttribute('aria-busy'); });
});
})();`;
