/**
 * The heat page's groups (it uses script.ts's helpers): a grouped collection's group map from /stats (`groups`),
 * the groups off the default with their shards and phase, most shards first. Its per-shard charts then count
 * shard i of every group together.
 *
 * Hot groups: the page draws `hotGroups` ({ keys: [{ key, count, error }], total, errorBound }, as `hotWrites`)
 * from the span it shows (a /stats span, or the /load answer in a fleet span) wherever the figures carry one:
 * load records that count writes by group fill it in. Until a span carries it, the note says what the group
 * map alone can tell: the groups grown for their load.
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
  const rows = groups.groups.map((g) => {
    const tr = document.createElement('tr');
    for (const text of [JSON.stringify(g.group), g.shards, g.writeShards, g.phase]) {
      const td = document.createElement('td');
      td.textContent = String(text);
      tr.append(td);
    }
    return tr;
  });
  byId('groups').querySelector('tbody').replaceChildren(...rows);
  const hot = hotGroupsOf(stats);
  byId('hot-groups-box').hidden = !hot;
  if (hot) hotTable('hot-groups', hot.keys, hot.total, hot.errorBound);
  byId('hot-groups-note').textContent = hot
    ? ''
    : 'hot groups: these figures do not count writes by group; the groups listed are the ones grown for their load';
}
`;
