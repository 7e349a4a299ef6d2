import { createInterface } from 'node:readline/promises';
import { reshardCli } from '../src/cli/reshard-cli';

/** `npm run reshard -- --help`: see src/cli/reshard-options.ts and docs/resharding.md. */
const code = await reshardCli(process.argv.slice(2), {
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
