/**
 * The heat page's groups (it uses script.ts's helpers): a grouped collection's group map from /stats, most shards
 * first, and `hotGroups` (shaped as `hotWrites`) from the span shown wherever its figures carry them.
 */
export const HEAT_GROUPS_SCRIPT = `
function shardsWord(n) {
  return n + (n === 1 ? ' shard' : ' shards');
}

/** What the charts' bars stand for: a shard, or in a grouped collection shard i of every group. */
function shardUnit(stats) {
  return stats.groups ? 'per shard of a group (every group summed)' : 'per shard';
}

/** The hot groups of the span drawn, where its figures count them. */
function hotGroupsOf(stats) {
  if (fleetMinutes()) return fleet && fleet.load ? fleet.load.hotGroups : undefined;
  const span = stats[spanSelect.value];
  return span ? span.hotGroups : undefined;
}

function drawGroups(stats) {
  const groups = stats.groups;
  byId('groups-box').hidden = !groups;
  if (!groups) return;
  byId('groups-summary').textContent =
    'grouped by ' + groups.field + ' (' + groups.type + '): every group on ' + shardsWord(groups.defaultShards) +
    ' unless listed; ' + groups.groupsOffDefault + ' off the default (group map revision ' + groups.revision + ')' +
    (groups.groups.length < groups.groupsOffDefault ? ', the ' + groups.groups.length + ' largest shown' : '');
  const rows = groups.groups.map((g) => tableRow([JSON.stringify(g.group), g.shards, g.writeShards, g.phase]));
  byId('groups').querySelector('tbody').replaceChildren(...rows);
  const hot = hotGroupsOf(stats);
  byId('hot-groups-box').hidden = !hot;
  if (hot) hotTable('hot-groups', hot.keys, hot.total, hot.errorBound);
  byId('hot-groups-note').textContent = hot
    ? ''
    : 'hot groups: these figures do not count writes by group; the groups listed are the ones grown for their load';
}
`;
