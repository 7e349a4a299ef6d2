import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * One way for every `npm run …` script to read its arguments: `node:util` parseArgs,
 * strict (an unknown flag, a missing value or a stray positional is a mistake), with
 * `--help`/`-h` added to every script.
 */

/** A mistake in the command line: the script prints it with its usage text and exits 2. */
export class UsageError extends Error {}

/** A script's options and whether it takes positionals; `--help` is added, `args` and `strict` are set here. */
export type CommandLineSpec = Omit<ParseArgsConfig, 'args' | 'strict' | 'tokens'>;

/** What parseArgs makes of `Spec` (values typed from the options, positionals). */
export type CommandLine<Spec extends CommandLineSpec> = ReturnType<typeof parseArgs<Spec & { strict: true }>>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Parses `argv` by `spec`: 'help' when `--help` is among them, else the values and
 * positionals. Throws UsageError for what parseArgs rejects, in its own words.
 */
export function readCommandLine<Spec extends CommandLineSpec>(
  spec: Spec,
  argv: readonly string[],
): CommandLine<Spec> | 'help' {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ ...spec, options: { ...spec.options, ...HELP }, args: [...argv], strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help === true) return 'help';
  delete parsed.values.help;
  return parsed as unknown as CommandLine<Spec>;
}

/**
 * The command line of the script `name` (process.argv unless `argv` is given), read
 * by `spec` and turned into the script's options by `interpret`. `--help` prints
 * `usage` and exits 0; a UsageError (from parsing, or thrown by `interpret` for a
 * value it cannot use) prints `name: message` and `usage` on stderr and exits 2.
 */
export function parseCommandLine<Spec extends CommandLineSpec, Options>(
  name: string,
  usage: string,
  spec: Spec,
  interpret: (line: CommandLine<Spec>) => Options,
  argv: readonly string[] = process.argv.slice(2),
): Options {
  try {
    const line = readCommandLine(spec, argv);
    if (line !== 'help') return interpret(line);
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${name}: ${error.message}\n\n${usage}\n`);
    process.exit(2);
  }
}

/**
 * The value of `--flag` as a number from `min` (default 0) to `max` (default none), whole
 * if `integer`; a UsageError otherwise.
 */
export function numberArg(
  flag: string,
  raw: string | undefined,
  { min = 0, max = Number.POSITIVE_INFINITY, integer = false } = {},
): number {
  const value = Number(raw);
  if (
    raw === undefined ||
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = integer ? 'a whole number' : 'a number';
    const bounded = max !== Number.POSITIVE_INFINITY;
    // The bounded wording is npm run reshard's, kept as it was: it quotes the value, so an empty one shows.
    const range = bounded ? `from ${min} to ${max}` : `≥ ${min}`;
    const given = raw === undefined ? '' : `, not ${bounded ? JSON.stringify(raw) : raw}`;
    throw new UsageError(`--${flag} must be ${kind} ${range}${given}`);
  }
  return value;
}
