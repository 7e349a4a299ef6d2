import { sweepPartsCli } from '../src/cli/sweep-parts-cli';

/** `npm run sweep-parts -- --help`: see src/cli/sweep-parts-cli.ts and docs/api.md. */
process.exitCode = await sweepPartsCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
