/**
 * The heat page's script, as text: draws the figures of one /stats answer into SVG and a
 * table, then polls `stats` every two seconds. Values are user data: they only ever
 * reach the page through textContent, never as HTML.
 */
export const HEAT_PAGE_SCRIPT = `
'use strict';
const SVG = 'http://www.w3.org/2000/svg';
const SERIES = [
  ['writes', 'writes', '#d9480f'],
  ['itemsRead', 'items read', '#1c7ed6'],
  ['queries', 'queries', '#5c940d'],
  ['throttles', 'throttles', '#862e9c'],
];
let latest = JSON.parse(document.getElementById('initial').textContent);
const spanSelect = document.getElementById('span');
spanSelect.addEventListener('change', () => draw(latest));

function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function chart(span, stats, field, label, color) {
  const shards = span.shards;
  const width = Math.max(480, shards.length * 28 + 60);
  const height = 150;
  const max = Math.max(1, ...shards.map((s) => s[field]));
  const slot = (width - 50) / Math.max(1, shards.length);
  const svg = el('svg', { width, height, role: 'img', 'aria-label': label + ' per shard', 'data-series': field });
  svg.append(el('text', { x: 0, y: 10 }, String(max)));
  svg.append(el('line', { x1: 45, y1: 110, x2: width, y2: 110, stroke: '#999' }));
  shards.forEach((s, i) => {
    const h = (100 * s[field]) / max;
    const x = 50 + i * slot;
    const barWidth = Math.max(2, slot - 4);
    const bar = el('rect', { x, y: 110 - h, width: barWidth, height: h, fill: color, 'data-shard': s.shard });
    const start = stats.boundaries ? ' from ' + JSON.stringify(boundaryOf(stats, s.shard)) : '';
    bar.append(el('title', {}, 'shard ' + s.shard + start + ': ' + s[field] + ' ' + label));
    svg.append(bar);
    svg.append(el('text', { x: x + 2, y: 124 }, String(s.shard)));
    if (stats.boundaries && field === 'writes') {
      const shown = boundaryOf(stats, s.shard);
      const b = typeof shown === 'string' ? shown : shown.join(', ');
      svg.append(el('text', { x: x + 2, y: 140, class: 'boundary' }, b.length > 6 ? b.slice(0, 5) + '…' : b));
    }
  });
  const box = document.createElement('div');
  box.className = 'chart';
  const title = document.createElement('h2');
  title.textContent = label + ' per shard';
  box.append(title, svg);
  return box;
}

// Typed orders' boundaries are encoded tuples: their field values are what people read.
function boundaryOf(stats, shard) {
  return stats.boundaryValues ? stats.boundaryValues[shard] : (stats.boundaries[shard] ?? '');
}

function draw(stats) {
  const span = stats[spanSelect.value];
  document.getElementById('title').textContent = 'shardline heat: ' + stats.collection;
  const imbalance = span.imbalance === null ? 'no writes yet' : 'imbalance ' + span.imbalance.toFixed(2);
  document.getElementById('summary').textContent =
    stats.strategy + ', ' + stats.shardCount + ' shards, map v' + stats.mapVersion + ' · ' +
    span.writes + ' writes in ' + span.seconds + ' s · ' + imbalance;
  const charts = document.getElementById('charts');
  charts.replaceChildren(...SERIES.map(([field, label, color]) => chart(span, stats, field, label, color)));
  const rows = span.hotKeys.slice(0, 25).map((h) => {
    const tr = document.createElement('tr');
    const share = span.writes ? ((100 * h.count) / span.writes).toFixed(1) + ' %' : '';
    for (const text of [JSON.stringify(h.values ?? h.key), h.count, h.error, share]) {
      const td = document.createElement('td');
      td.textContent = String(text);
      tr.append(td);
    }
    return tr;
  });
  document.querySelector('#hot-keys tbody').replaceChildren(...rows);
}

async function refresh() {
  const status = document.getElementById('status');
  try {
    const response = await fetch('stats', { headers: { accept: 'application/json' }, cache: 'no-store' });
    if (!response.ok) throw new Error('stats answered ' + response.status);
    latest = await response.json();
    draw(latest);
    status.textContent = 'updated ' + new Date().toLocaleTimeString();
    status.className = '';
  } catch (error) {
    status.textContent = String(error.message || error);
    status.className = 'bad';
  }
}

draw(latest);
setInterval(refresh, 2000);
`;
