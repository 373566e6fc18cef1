/**
 * The imports overview: a page that asks /api/imports every two seconds and draws one line per
 * sheet (text only through textContent: sheet names are the users' own), above the sheets the
 * hot folder did not take, rendered on the server (escaped: their names are the users' own too).
 */

/** A sheet the hot folder left where it was. */
export interface NotTakenSheet {
  path: string;
  reason: string;
  /** When it was seen, ISO 8601. */
  at: string;
}

/** `&`, `<`, `>`, `"` and `'` as entities: safe in text and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The sheets not taken as a section, nothing when there are none or none are known, and one
 * line saying so when they cannot be read now.
 */
export function notTakenSection(notTaken: NotTakenSheet[] | Error | undefined): string {
  if (notTaken === undefined || (Array.isArray(notTaken) && notTaken.length === 0)) return '';
  if (notTaken instanceof Error) {
    return `<p class="bad" id="not-taken">The sheets not taken cannot be read now: ${escapeHtml(notTaken.message)}</p>\n`;
  }
  const rows = notTaken
    .map(
      (s) =>
        `    <tr><td>${escapeHtml(s.at)}</td><td class="path">${escapeHtml(s.path)}</td><td>${escapeHtml(s.reason)}</td></tr>`,
    )
    .join('\n');
  return `<h2>Sheets not taken</h2>
<p class="sub">The hot folder left these where they are. Fix what is said and drop them again.</p>
<table id="not-taken">
  <thead><tr><th>Seen</th><th>File</th><th>Why</th></tr></thead>
  <tbody>
${rows}
  </tbody>
</table>
`;
}

export function overviewPage(notTaken?: NotTakenSheet[] | Error): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>order-importer: imports</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 2rem; color: #1d2733; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.1rem; margin: 2rem 0 .25rem; }
  td.path { white-space: normal; word-break: break-all; }
  .sandbox { padding: .1rem .45rem; border-radius: .6rem; background: #fff1c2; color: #6b4e00; font-weight: 600; margin-left: .4rem; }
  p.sub { margin: 0 0 1.5rem; color: #5b6b7b; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid #e3e8ee; white-space: nowrap; }
  th { font-weight: 600; color: #5b6b7b; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; }
  .bar { display: inline-block; width: 8rem; height: .55rem; background: #e3e8ee; border-radius: .3rem; vertical-align: middle; margin-right: .5rem; }
  .bar > span { display: block; height: 100%; background: #2f7d4e; border-radius: .3rem; }
  .state { padding: .1rem .45rem; border-radius: .6rem; background: #eef2f6; }
  .state.done { background: #dff3e6; }
  .bad { color: #b3261e; font-weight: 600; }
  a { color: #0b5cad; }
  nav a { margin-right: 1rem; }
</style>
</head>
<body>
<nav><a href="/">Imports</a><a href="/queues">Queues</a><a href="/healthz">Health</a></nav>
<h1>Imports</h1>
<p class="sub" id="updated">Loading…</p>
<table>
  <thead><tr>
    <th>Sheet</th><th>Received</th><th>State</th><th>Progress</th>
    <th>Created</th><th>Invalid</th><th>Failed</th><th>Needs review</th><th>Duplicate</th>
    <th>Duration</th><th>Report</th><th>API</th>
  </tr></thead>
  <tbody id="imports"></tbody>
</table>
${notTakenSection(notTaken)}<script>
const cell = (row, text, className) => {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
};
const link = (td, href, text) => {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  td.appendChild(a);
  td.appendChild(document.createTextNode(' '));
};
const duration = (ms) => {
  if (!(ms >= 0)) return '';
  const s = Math.round(ms / 1000);
  return s < 60 ? s + ' s' : Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
};
async function refresh() {
  try {
    const answer = await fetch('/api/imports');
    const { imports } = await answer.json();
    const body = document.getElementById('imports');
    body.replaceChildren();
    for (const sheet of imports) {
      const tr = document.createElement('tr');
      tr.dataset.sheetId = sheet.sheetId;
      cell(tr, sheet.name);
      cell(tr, new Date(sheet.startedAt).toLocaleString());
      const state = cell(tr, '');
      const badge = document.createElement('span');
      badge.className = 'state ' + sheet.state;
      badge.textContent = sheet.error ? 'unreadable' : sheet.state;
      state.appendChild(badge);
      const progress = cell(tr, '');
      const total = sheet.total ?? 0;
      const bar = document.createElement('span');
      bar.className = 'bar';
      const fill = document.createElement('span');
      fill.style.width = (total ? Math.round((100 * sheet.final) / total) : 0) + '%';
      bar.appendChild(fill);
      progress.appendChild(bar);
      progress.appendChild(document.createTextNode(sheet.final + '/' + (sheet.total ?? '?')));
      const c = sheet.counts;
      cell(tr, String(c.created), 'n');
      for (const n of [c.invalid, c.failed, c['needs-review']]) cell(tr, String(n), n > 0 ? 'n bad' : 'n');
      cell(tr, String(c.duplicate), 'n');
      const end = sheet.finishedAt ? Date.parse(sheet.finishedAt) : Date.now();
      cell(tr, duration(end - Date.parse(sheet.startedAt)));
      const report = cell(tr, '');
      if (sheet.reportDir) {
        link(report, '/reports/' + encodeURIComponent(sheet.sheetId) + '/report.csv', 'report.csv');
        if (c.invalid + c.failed > 0) {
          link(report, '/reports/' + encodeURIComponent(sheet.sheetId) + '/failed.zip', 'failed/ (zip)');
        }
        if (c['needs-review'] > 0) {
          link(report, '/reports/' + encodeURIComponent(sheet.sheetId) + '/needs-review.csv', 'needs-review.csv');
        }
        link(report, '/reports/' + encodeURIComponent(sheet.sheetId) + '/summary.json', 'summary.json');
      }
      const api = cell(tr, sheet.apiHost ?? '', 'api');
      if (sheet.sandbox) {
        const sandbox = document.createElement('span');
        sandbox.className = 'sandbox';
        sandbox.textContent = 'sandbox';
        api.appendChild(sandbox);
      }
      body.appendChild(tr);
    }
    document.getElementById('updated').textContent =
      imports.length + ' sheet(s), updated ' + new Date().toLocaleTimeString();
  } catch (error) {
    document.getElementById('updated').textContent = 'Cannot reach the importer: ' + error;
  }
}
refresh();
setInterval(refresh, 2000);
</script>
</body>
</html>
`;
}
