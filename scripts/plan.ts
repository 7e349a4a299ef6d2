import { planCli } from '../src/cli/plan-cli';

/** `npm run plan -- --help`: see src/cli/plan-cli.ts. */
planCli(process.argv.slice(2));
