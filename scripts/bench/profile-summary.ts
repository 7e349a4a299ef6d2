import type { Profiler } from 'node:inspector';

/**
 * A CPU profile's busy time per page, by where the code lives and by function. Self time
 * only: a sample counts for the function on top of the stack, so the rows add up to the
 * busy total. Idle samples (waiting for DynamoDB) are left out.
 */
export function profileSummary(profile: Profiler.Profile, pages: number, top: number): string {
  const selfUs = selfTimes(profile);
  const parents = new Map<number, Profiler.ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  /** Node's and V8's own work is charged to the code that called it (the SDK's sockets, Hono's Request). */
  const callerPlace = (node: Profiler.ProfileNode): string => {
    for (let at: Profiler.ProfileNode | undefined = node; at; at = parents.get(at.id)) {
      const place = placeOf(at.callFrame);
      if (place !== 'node' && !place.startsWith('(')) return place;
    }
    return placeOf(node.callFrame);
  };
  const byPlace = new Map<string, number>();
  const byCaller = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    const place = placeOf(node.callFrame);
    if (us === 0 || place === '(idle)') continue;
    busy += us;
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const caller = callerPlace(node);
    byCaller.set(caller, (byCaller.get(caller) ?? 0) + us);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${place}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const perPage = (us: number) => (us / 1000 / pages).toFixed(3).padStart(7);
  const share = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const rows = (entries: Map<string, number>, limit: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, us]) => `${perPage(us)} ms ${share(us)}  ${name}`);
  return [
    `busy CPU per page: ${perPage(busy).trim()} ms (self time, ms per page and share)`,
    '',
    'by place:',
    ...rows(byPlace, 40),
    '',
    "by place, with Node's and V8's work charged to the code that called it:",
    ...rows(byCaller, 40),
    '',
    'by function:',
    ...rows(byFunction, top),
  ].join('\n');
}

/** Microseconds of self time per node, from the sample intervals. */
function selfTimes(profile: Profiler.Profile): Map<number, number> {
  const times = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // A sample's time is the interval until the next one.
    const us = deltas[i + 1] ?? 0;
    times.set(samples[i]!, (times.get(samples[i]!) ?? 0) + us);
  }
  return times;
}

/** shardline's folder, the package, Node's own code, or V8's pseudo-frames. */
function placeOf(frame: Profiler.ProfileNode['callFrame']): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1, url.lastIndexOf('/'));
  return url.slice(url.lastIndexOf('/') + 1);
}
