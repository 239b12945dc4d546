/** The page's only stylesheet, inlined (the CSP allows inline styles, nothing else from anywhere). */
export const PAGE_CSS = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#5b6470;--line:#d7dce2;--card:#f6f8fa;--accent:#2f6fdb;
--pass:#1f883d;--fail:#cf222e;--error:#9a6700;--pending:#6e7781;--ci:rgba(47,111,219,.28)}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;
--card:#161b22;--accent:#4c8ef7;--pass:#3fb950;--fail:#f85149;--error:#d29922;--pending:#8b949e;
--ci:rgba(76,142,247,.35)}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
header.page{padding:20px 28px;border-bottom:1px solid var(--line)}
header.page h1{margin:0;font-size:22px}
header.page p{margin:4px 0 0;color:var(--muted)}
main{padding:8px 28px 40px;max-width:1400px}
section{margin-top:24px}
h2{font-size:17px;margin:0 0 10px}
h3{font-size:14px;margin:16px 0 6px}
dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dl.summary dt{color:var(--muted)}
dl.summary dd{margin:0}
.badge{display:inline-block;padding:0 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;background:var(--pending)}
.badge.pass,.badge.completed,.badge.passed{background:var(--pass)}
.badge.fail,.badge.failed{background:var(--fail)}
.badge.error,.badge.interrupted{background:var(--error)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.card .name{color:var(--muted);font-size:12px;display:flex;justify-content:space-between;gap:6px}
.card .value{font-size:22px;font-weight:600}
.card .stderr{color:var(--muted);font-size:13px;margin-left:4px}
.card .meta{color:var(--muted);font-size:12px}
.dir.good{color:var(--pass)}
.charts{display:flex;flex-wrap:wrap;gap:16px}
figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px}
figcaption{font-size:12px;color:var(--muted);margin-bottom:4px}
svg text{fill:var(--muted);font-size:11px}
svg .axis,svg .track{stroke:var(--muted);fill:none}
svg .grid{stroke:var(--line);fill:none}
svg .bar{fill:var(--accent)}
svg .point{fill:var(--accent);fill-opacity:.75}
svg .line{fill:none;stroke-width:2;stroke:var(--accent)}
svg .empty{fill:none;stroke:var(--line);stroke-dasharray:4 4}
svg .ci{fill:var(--ci)}
svg .value{fill:var(--fg)}
.series-1 .line{stroke:#d1495b}.series-1 .point,text.series-1{fill:#d1495b}
.series-2 .line{stroke:#2a9d8f}.series-2 .point,text.series-2{fill:#2a9d8f}
.series-3 .line{stroke:#e9a23b}.series-3 .point,text.series-3{fill:#e9a23b}
.series-4 .line{stroke:#8e6bbf}.series-4 .point,text.series-4{fill:#8e6bbf}
.series-5 .line{stroke:#6c757d}.series-5 .point,text.series-5{fill:#6c757d}
.filters{display:flex;gap:10px;align-items:center;margin-bottom:8px;flex-wrap:wrap}
.filters input,.filters select{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.count{color:var(--muted)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
th button{font:inherit;font-weight:600;background:none;border:0;color:inherit;cursor:pointer;padding:0}
th[aria-sort=ascending] button::after{content:" \\25B2"}
th[aria-sort=descending] button::after{content:" \\25BC"}
td,pre{unicode-bidi:plaintext}
td.explanation{max-width:480px;overflow-wrap:anywhere;color:var(--muted)}
button.trace{font:inherit;color:var(--accent);background:none;border:0;cursor:pointer;padding:0;text-decoration:underline}
#trace-panel{border:1px solid var(--line);border-radius:8px;padding:12px 16px;background:var(--card)}
#trace-panel[hidden]{display:none}
#trace-panel table{font-size:13px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:8px;max-height:420px;overflow:auto;margin:4px 0}
.note,.none{color:var(--muted);font-style:italic}
.side-by-side{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:12px}
.output-label{font-weight:600;font-family:ui-monospace,monospace}
.violations li{color:var(--fail)}
td.pass{color:var(--pass)}td.fail{color:var(--fail)}
svg .chart-title{fill:var(--fg);font-size:13px;font-weight:600}
svg .zero{stroke:var(--muted);stroke-dasharray:3 3}
svg .forest-row .dot{fill:var(--muted)}svg .forest-row .ci-line{stroke:var(--muted);stroke-width:3}
svg .forest-row.better .dot{fill:var(--pass)}svg .forest-row.better .ci-line{stroke:var(--pass)}
svg .forest-row.worse .dot{fill:var(--fail)}svg .forest-row.worse .ci-line{stroke:var(--fail)}
svg .row-label,svg .row-value{fill:var(--fg);font-size:12px}
svg .diagonal{stroke:var(--muted);stroke-dasharray:4 4}
svg .task-point{fill:var(--pending);fill-opacity:.8}svg .task-point.above{fill:var(--pass)}svg .task-point.below{fill:var(--fail)}
svg a .task-point:hover{stroke:var(--fg);stroke-width:2}
svg .frontier-line{fill:none;stroke:var(--pass);stroke-width:2;stroke-dasharray:6 3}
svg .cost-point .dot{fill:var(--pending)}svg .cost-point .ci-line{stroke:var(--muted);stroke-width:2}
svg .cost-point.frontier .dot{fill:var(--pass)}
svg .cost-point.incomplete .dot{fill:var(--bg);stroke:var(--error);stroke-width:2;stroke-dasharray:3 2}
svg a .point:hover{stroke:var(--fg);stroke-width:2}
svg .step-link{stroke:transparent;stroke-width:12;fill:none}svg a:hover .step-link{stroke:var(--ci)}
.chart-notes{font-size:12px;color:var(--muted);margin:4px 0 0;padding-left:18px}
.traces-side{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:16px}
.trace-column{border:1px solid var(--line);border-radius:8px;padding:8px 12px;background:var(--card);min-width:0}
`;
