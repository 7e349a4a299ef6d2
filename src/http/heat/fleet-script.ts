/**
 * The heat page's fleet view (it uses script.ts's helpers): with a "fleet" span chosen it draws `load?minutes=M`;
 * should `load` answer 404 (a router without load records), the fleet spans are disabled.
 */
export const HEAT_FLEET_SCRIPT = `
const FLEET_SERIES = [
  ['writesPerSecond', 'writes/s', '#d9480f'],
  ['itemsReadPerSecond', 'items read/s', '#1c7ed6'],
  ['queriesPerSecond', 'queries/s', '#5c940d'],
  ['throttles', 'throttles', '#862e9c'],
  ['partitionShare', "share of a partition's limits", '#e67700'],
];
// Each router writes its records once a minute: asking more often than this would show
// nothing new, and every ask is M queries to the table.
const FLEET_EVERY_MS = 10000;
// The last /load answer, with the span it is for and when it came.
let fleet = null;

/** The chosen fleet span in minutes, or 0 when the span is this router's own. */
function fleetMinutes() {
  const chosen = /^fleet:(\\d+)$/.exec(spanSelect.value);
  return chosen ? Number(chosen[1]) : 0;
}

async function refreshFleet() {
  const minutes = fleetMinutes();
  if (fleet && fleet.minutes === minutes && Date.now() - fleet.at < FLEET_EVERY_MS) return;
  const load = await getJson('load?minutes=' + minutes);
  fleet = { minutes, at: Date.now(), load };
}

function drawFleet(stats) {
  const minutes = fleetMinutes();
  // An answer for another span (the choice changed while it was on its way) is not drawn.
  const load = fleet && fleet.minutes === minutes ? fleet.load : null;
  byId('hot-writes-title').textContent = 'hot keys written (fleet)';
  if (!load) {
    byId('summary').textContent = 'asking the fleet for its last ' + minutes + ' min…';
    byId('charts').replaceChildren();
    hotTable('hot-keys', [], 0, 0);
    byId('hot-reads-box').hidden = true;
    return;
  }
  // /stats tells the strategy and boundaries of the map it counts under: they fit /load's shards only
  // when both are of the same map (a reshard in between renumbers them).
  const same = stats.mapVersion === load.mapVersion;
  const routers = load.routers + (load.routers === 1 ? ' router' : ' routers');
  const imbalance = load.imbalance === null ? 'no load yet' : 'imbalance ' + load.imbalance.toFixed(2);
  const shards = stats.groups ? shardsWord(load.shardCount) + ' a group by default' : load.shardCount + ' shards';
  byId('summary').textContent =
    (same ? stats.strategy + ', ' : '') + shards + ', map v' + load.mapVersion + ' · ' +
    routers + ' reported over ' + load.windowSeconds + ' s · ' + imbalance + ' (partition share)';
  const boundary = same ? boundaryOf(stats) : null;
  const unit = shardUnit(stats);
  const charts = FLEET_SERIES.map((series, i) => chart(load.shards, series, boundary, i === 0, unit));
  byId('charts').replaceChildren(...charts);
  hotTable('hot-keys', load.hotWrites.keys, load.hotWrites.total, load.hotWrites.errorBound);
  const reads = load.hotReads;
  byId('hot-reads-box').hidden = reads.keys.length === 0;
  hotTable('hot-reads', reads.keys, reads.total, reads.errorBound);
}

/** No load records on this router: the fleet spans cannot be chosen, and the note says why. */
function fleetOff() {
  byId('fleet-spans').disabled = true;
  byId('fleet-note').hidden = false;
  if (fleetMinutes()) {
    spanSelect.value = 'lastMinute';
    draw();
  }
}
`;
