import { HEAT_FLEET_SCRIPT } from './fleet-script';
import { HEAT_GROUPS_SCRIPT } from './groups-script';

const CHARTS = `
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
const byId = (id) => document.getElementById(id);

function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Rates per second have long fractions: three significant digits are what a bar can show.
function fmt(n) {
  return Number.isInteger(n) ? String(n) : n.toPrecision(3);
}

/**
 * One series' bars, one per shard; each bar carries its shard and exact value as data
 * attributes. boundary(shard), when given, says where each shard starts (in the bars' titles,
 * and under the bars when labelled: the first series only, so the labels show once).
 */
function chart(shards, [field, label, color], boundary, labelled, unit = 'per shard') {
  const width = Math.max(480, shards.length * 28 + 60);
  const height = 150;
  const max = Math.max(...shards.map((s) => s[field]), 0) || 1;
  const slot = (width - 50) / Math.max(1, shards.length);
  const svg = el('svg', { width, height, role: 'img', 'aria-label': label + ' ' + unit, 'data-series': field });
  svg.append(el('text', { x: 0, y: 10 }, fmt(max)));
  svg.append(el('line', { x1: 45, y1: 110, x2: width, y2: 110, stroke: '#999' }));
  shards.forEach((s, i) => {
    const h = (100 * s[field]) / max;
    const x = 50 + i * slot;
    const barWidth = Math.max(2, slot - 4);
    const attrs = { x, y: 110 - h, width: barWidth, height: h, fill: color, 'data-shard': s.shard };
    const bar = el('rect', { ...attrs, 'data-value': s[field] });
    const start = boundary ? ' from ' + JSON.stringify(boundary(s.shard)) : '';
    bar.append(el('title', {}, 'shard ' + s.shard + start + ': ' + fmt(s[field]) + ' ' + label));
    svg.append(bar);
    svg.append(el('text', { x: x + 2, y: 124 }, String(s.shard)));
    if (boundary && labelled) {
      const shown = boundary(s.shard);
      const b = typeof shown === 'string' ? shown : shown.join(', ');
      svg.append(el('text', { x: x + 2, y: 140, class: 'boundary' }, b.length > 6 ? b.slice(0, 5) + '…' : b));
    }
  });
  const box = document.createElement('div');
  box.className = 'chart';
  const title = document.createElement('h2');
  title.textContent = label + ' ' + unit;
  box.append(title, svg);
  return box;
}

// Typed orders' boundaries are encoded tuples: their field values are what people read.
function boundaryOf(stats) {
  if (!stats.boundaries) return null;
  return (shard) => (stats.boundaryValues ? stats.boundaryValues[shard] : (stats.boundaries[shard] ?? ''));
}

function tableRow(cells) {
  const tr = document.createElement('tr');
  for (const text of cells) {
    const td = document.createElement('td');
    td.textContent = String(text);
    tr.append(td);
  }
  return tr;
}

/** Fills a hot keys table: value, count, ± error, share of total; bound says what the list leaves out. */
function hotTable(id, keys, total, bound) {
  const rows = keys.slice(0, 25).map((h) => {
    const share = total ? ((100 * h.count) / total).toFixed(1) + ' %' : '';
    return tableRow([JSON.stringify(h.values ?? h.key), h.count, h.error, share]);
  });
  byId(id).querySelector('tbody').replaceChildren(...rows);
  byId(id + '-bound').textContent = rows.length ? 'a value not listed: at most ' + bound + ' times' : '';
}

function drawStats(stats) {
  const span = stats[spanSelect.value];
  const imbalance = span.imbalance === null ? 'no writes yet' : 'imbalance ' + span.imbalance.toFixed(2);
  const shards = stats.groups ? shardsWord(stats.shardCount) + ' a group by default' : stats.shardCount + ' shards';
  byId('summary').textContent =
    stats.strategy + ', ' + shards + ', map v' + stats.mapVersion + ' · ' +
    span.writes + ' writes in ' + span.seconds + ' s · ' + imbalance;
  const unit = shardUnit(stats);
  const charts = SERIES.map((series, i) => chart(span.shards, series, boundaryOf(stats), i === 0, unit));
  byId('charts').replaceChildren(...charts);
  byId('hot-writes-title').textContent = 'hot keys (this router)';
  hotTable('hot-keys', span.hotKeys, span.writes, span.hotKeyErrorBound);
  byId('hot-reads-box').hidden = true;
}

async function getJson(path) {
  const response = await fetch(path, { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (!response.ok) throw Object.assign(new Error(path + ' answered ' + response.status), { status: response.status });
  return response.json();
}
`;

const START = `
function draw() {
  byId('title').textContent = 'shardline heat: ' + latest.collection;
  if (fleetMinutes()) drawFleet(latest);
  else drawStats(latest);
  drawGroups(latest);
}

async function refresh() {
  const status = byId('status');
  try {
    if (fleetMinutes()) await refreshFleet();
    else latest = await getJson('stats');
    draw();
    // The fleet's figures are asked for less often than the page refreshes: say when they came.
    status.textContent = 'updated ' + new Date(fleetMinutes() ? fleet.at : Date.now()).toLocaleTimeString();
    status.className = '';
  } catch (error) {
    if (error.status === 404 && fleetMinutes()) return fleetOff();
    status.textContent = String(error.message || error);
    status.className = 'bad';
  }
}

spanSelect.addEventListener('change', () => {
  draw();
  if (fleetMinutes()) refresh();
});
draw();
setInterval(refresh, 2000);
`;

/**
 * The heat page's script: draws /stats (or /load) and a group map into SVG and tables, then polls. Values are user
 * data: they reach the page through textContent only, never as HTML. The start comes last, after every part.
 */
export const HEAT_PAGE_SCRIPT = `${CHARTS}${HEAT_FLEET_SCRIPT}${HEAT_GROUPS_SCRIPT}${START}`;
