import { autopilotCli } from '../src/cli/autopilot-cli';

// Ctrl-C (or a supervisor's TERM) ends the loop after the step under way; a reshard it
// runs stops at its next safe point, its lease released, and resumes at the next step.
const stopping = new AbortController();
const onSignal = () => {
  if (stopping.signal.aborted) process.exit(130);
  process.stderr.write('\nautopilot: stopping after this step (again to exit at once)\n');
  stopping.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

/** `npm run autopilot -- --help`: see src/cli/autopilot-cli.ts and docs/autopilot.md. */
process.exitCode = await autopilotCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  stop: stopping.signal,
});
