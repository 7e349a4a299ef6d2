import { createInterface } from 'node:readline/promises';
import { reshardCli } from '../src/cli/reshard-cli';

// Ctrl-C (or a TERM from a supervisor) stops the run at its next safe point and releases its lease,
// so the same command resumes at once; a second signal exits at once, the lease left to expire.
const stopping = new AbortController();
const onSignal = (signal: NodeJS.Signals) => {
  if (stopping.signal.aborted) process.exit(130);
  process.stderr.write(`\nreshard: ${signal}: stopping at the next safe point (again to exit at once)\n`);
  stopping.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

/** `npm run reshard -- --help`: see src/cli/reshard-options.ts and docs/resharding.md. */
const code = await reshardCli(process.argv.slice(2), {
  stop: stopping.signal,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  progress: true,
  ...(process.stdin.isTTY && {
    confirm: async (question: string) => {
      const prompt = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
      } finally {
        prompt.close();
      }
    },
  }),
});
process.exitCode = code;
