import { followCli } from '../src/cli/follow-cli';

/** `npm run follow -- --help`: see src/cli/follow-cli.ts and docs/other-writers.md. */
const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    // The batch in hand is indexed and checkpointed, then the follower exits; one waiting to be retried is left
    // without a checkpoint, for the next run.
    stop.abort();
  });
}
const code = await followCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  tty: process.stderr.isTTY === true,
  signal: stop.signal,
});
process.exitCode = code;
