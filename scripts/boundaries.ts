import { boundariesCli } from '../src/cli/boundaries-cli';

/** `npm run boundaries -- --help`: see src/cli/boundaries-cli.ts and docs/boundaries.md. */
const code = await boundariesCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: true,
  env: process.env,
});
process.exitCode = code;
