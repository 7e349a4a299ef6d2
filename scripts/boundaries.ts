import { boundariesCli } from './lib/boundaries-cli';

/**
 * `npm run boundaries -- --help`: see scripts/lib/boundaries-cli.ts and the README section
 * "Boundaries and capacity planning".
 */
const code = await boundariesCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: true,
  env: process.env,
});
process.exitCode = code;
