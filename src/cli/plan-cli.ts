import { capacityPlan } from '../planning/capacity-plan';
import { groupedCapacityPlan, type GroupedCapacityInput } from '../planning/group-plan';
import { explain, explainGrouped } from '../planning/plan-text';
import { inWords, sortedStrategyNames, strategyNames } from '../core/strategies';
import { invalidRequest } from '../core/errors';
import { numberArg, parseCommandLine } from './command-line';

/** The strategies by name, range (the default) first: the rest fan a listing out to every shard. */
const STRATEGIES = sortedStrategyNames('range');

// The backslash continues the first line: one line of usage, two of code.
const USAGE = `Usage: npm run plan -- --item-bytes B --reads-per-second R --items-per-query Q \
--writes-per-second W [--strategy ${STRATEGIES.join('|')}] [--consistent] [--json]
       npm run plan -- ... --groups G [--hot-groups N] [--hot-group-reads-per-second R] \
[--hot-group-writes-per-second W]

  --item-bytes B          size of one index item (keys + projected attributes)
  --reads-per-second R    listing queries per second
  --items-per-query Q     items one query returns
  --writes-per-second W   item writes per second
  --strategy S            how listings read the shards: range (one shard a listing, the
                          default), ${inWords(STRATEGIES.slice(1))} (every shard, every listing)
  --consistent            strongly consistent reads (half the read throughput; GSIs
                          only serve eventually consistent reads)
  --groups G              a grouped collection of G groups: R and W are every group's
                          together; each group is sized from its own share (random)
  --hot-groups N          of them, N hot groups (default 1 with a hot rate) ...
  --hot-group-reads-per-second R, --hot-group-writes-per-second W
                          ... each at these rates (default: the even share)
  --json                  print the plan as JSON`;

const HOT_FLAGS = ['hot-groups', 'hot-group-reads-per-second', 'hot-group-writes-per-second'] as const;

/** Prints the plan the command line asks for (`npm run plan`, scripts/plan.ts); exits 2 on a bad command line. */
export function planCli(argv: readonly string[]): void {
  const output = parseCommandLine(
    'plan',
    USAGE,
    {
      options: {
        'item-bytes': { type: 'string' },
        'reads-per-second': { type: 'string' },
        'items-per-query': { type: 'string' },
        'writes-per-second': { type: 'string' },
        strategy: { type: 'string' },
        consistent: { type: 'boolean', default: false },
        groups: { type: 'string' },
        'hot-groups': { type: 'string' },
        'hot-group-reads-per-second': { type: 'string' },
        'hot-group-writes-per-second': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    },
    ({ values }) => {
      const strategy = values.strategy ?? 'range';
      const input = {
        itemBytes: numberArg('item-bytes', values['item-bytes']),
        readsPerSecond: numberArg('reads-per-second', values['reads-per-second']),
        itemsPerQuery: numberArg('items-per-query', values['items-per-query']),
        writesPerSecond: numberArg('writes-per-second', values['writes-per-second']),
        consistent: values.consistent,
      };
      if (!strategyNames().includes(strategy)) {
        throw invalidRequest(`--strategy must be ${inWords(STRATEGIES)}, not ${values.strategy}`);
      }
      const hotFlag = HOT_FLAGS.find((flag) => values[flag] !== undefined);
      if (values.groups === undefined && hotFlag) throw invalidRequest(`--${hotFlag} needs --groups`);
      if (values.groups !== undefined && values.strategy !== undefined && strategy !== 'random') {
        throw invalidRequest(`a grouped collection's groups are random: drop --strategy ${strategy}`);
      }
      const shown = (plan: object, planInput: object, text: string) =>
        values.json ? `${JSON.stringify({ ...plan, input: planInput }, null, 2)}\n` : `${text}\n`;
      if (values.groups === undefined) {
        const plain = { ...input, strategy };
        const plan = capacityPlan(plain);
        return shown(plan, plain, explain(plan, plain));
      }
      const groups = numberArg('groups', values.groups, { min: 1, integer: true });
      const rate = (flag: (typeof HOT_FLAGS)[1 | 2], share: number) =>
        values[flag] === undefined ? share / groups : numberArg(flag, values[flag]);
      const hot = hotFlag && {
        count:
          values['hot-groups'] === undefined ? 1 : numberArg('hot-groups', values['hot-groups'], { integer: true }),
        readsPerSecond: rate('hot-group-reads-per-second', input.readsPerSecond),
        writesPerSecond: rate('hot-group-writes-per-second', input.writesPerSecond),
      };
      // What the plan cannot use (a zero item size, hot groups past the total) is an invalid_request too.
      const grouped: GroupedCapacityInput = { ...input, groups, ...(hot && { hot }) };
      const plan = groupedCapacityPlan(grouped);
      return shown(plan, grouped, explainGrouped(plan, grouped));
    },
    argv,
  );
  process.stdout.write(output);
}
