import { HEAT_PAGE_SCRIPT } from './script';

/**
 * The HTML of /collections/{c}/heat: inline script and styles, the first figures embedded, then `stats` or `load`
 * polled by relative URLs (it works under a path prefix). Without load records (`fleet` false) no fleet spans.
 */
export function heatPageHtml(initial: unknown, options: { fleet: boolean }): string {
  // JSON inside <script>: escaping `<` keeps a value like "</script>" from closing it.
  const data = JSON.stringify(initial).replace(/</g, '\\u003c');
  const off = options.fleet ? '' : ' disabled';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>shardline heat</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .3em; }
.meta { color: #555; margin-bottom: 1em; }
.chart h2 { font-size: 1em; margin: 1em 0 .2em; }
svg text { font: 10px system-ui, sans-serif; fill: #444; }
table { border-collapse: collapse; margin-top: .5em; }
td, th { padding: 2px 10px; text-align: right; border-bottom: 1px solid #eee; }
td:first-child, th:first-child { text-align: left; font-family: ui-monospace, monospace; }
#status.bad { color: #b00; }
.note { color: #555; }
</style>
</head>
<body>
<h1 id="title">shardline heat</h1>
<div class="meta"><span id="summary"></span> · <label>span
<select id="span"><option value="lastMinute">last minute</option><option value="sinceStart">since start</option>
<optgroup id="fleet-spans" label="every router"${off}><option value="fleet:1">fleet (last minute)</option>
<option value="fleet:5">fleet (last 5 minutes)</option><option value="fleet:15">fleet (last 15 minutes)</option>
</optgroup></select></label>
<span id="fleet-note" class="note"${options.fleet ? ' hidden' : ''}>(no fleet view: this router keeps no load records,
SHARDLINE_LOAD_RECORDS)</span> · <span id="status">loaded</span></div>
<div id="charts"></div>
<div id="groups-box" hidden><h2>groups off the default</h2>
<p id="groups-summary" class="note"></p>
<table id="groups"><thead><tr><th>group</th><th>shards</th><th>write shards</th><th>phase</th></tr></thead>
<tbody></tbody></table>
<div id="hot-groups-box" hidden><h2>hot groups</h2>
<table id="hot-groups"><thead><tr><th>group</th><th>writes</th><th>± error</th><th>share</th></tr></thead>
<tbody></tbody></table>
<p id="hot-groups-bound" class="note"></p></div>
<p id="hot-groups-note" class="note"></p></div>
<h2 id="hot-writes-title">hot keys</h2>
<table id="hot-keys"><thead><tr><th>normalized value</th><th>writes</th><th>± error</th><th>share</th></tr></thead>
<tbody></tbody></table>
<p id="hot-keys-bound" class="note"></p>
<div id="hot-reads-box" hidden><h2>hot keys read (fleet)</h2>
<table id="hot-reads"><thead><tr><th>normalized value</th><th>reads</th><th>± error</th><th>share</th></tr></thead>
<tbody></tbody></table>
<p id="hot-reads-bound" class="note"></p></div>
<noscript>This page draws with JavaScript; the figures themselves are at <a href="stats">stats</a> (this router)
and <a href="load">load</a> (every router, where load records are on).</noscript>
<script type="application/json" id="initial">${data}</script>
<script>${HEAT_PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/** Same-origin only: inline script and style, and fetches to the service itself. */
export const HEAT_PAGE_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; " +
  "img-src 'self' data:; frame-ancestors 'none'";
