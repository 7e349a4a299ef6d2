import { parseArgs, type ParseArgsConfig } from 'node:util';
import { hasCode, invalidRequest, refused } from '../core/errors';

// A mistake in the command line is an `invalid_request`: the script prints it with its usage text and exits 2.

/** A script's options and whether it takes positionals; `--help` is added, `args` and `strict` are set here. */
export type CommandLineSpec = Omit<ParseArgsConfig, 'args' | 'strict' | 'tokens'>;

export type CommandLine<Spec extends CommandLineSpec> = ReturnType<typeof parseArgs<Spec & { strict: true }>>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Every `npm run …` script's arguments: strict (an unknown flag, a missing value or a stray
 * positional is an `invalid_request`, in parseArgs' words), with `--help`/`-h` added ('help');
 * else what `interpret` (which may throw `invalid_request`) makes of them.
 */
export function readCommandLine<Spec extends CommandLineSpec, Options>(
  spec: Spec,
  argv: readonly string[],
  interpret: (line: CommandLine<Spec>) => Options,
): Options | 'help' {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ ...spec, options: { ...spec.options, ...HELP }, args: [...argv], strict: true });
  } catch (error) {
    throw invalidRequest((error as Error).message);
  }
  if (parsed.values.help === true) return 'help';
  delete parsed.values.help;
  return interpret(parsed as unknown as CommandLine<Spec>);
}

/** Where an in-process script writes and what it reads of its process: tests inject them. */
export interface ScriptIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Record<string, string | undefined>;
}

/**
 * The options `read` makes of a command line, or the exit code once `--help` printed `usage`
 * on stdout (0) or an `invalid_request` printed `name: message` and `usage` on stderr (2).
 */
export function readOptions<Options extends object>(
  name: string,
  usage: string,
  io: Pick<ScriptIO, 'stdout' | 'stderr'>,
  read: () => Options | 'help',
): Options | number {
  try {
    const options = read();
    if (options !== 'help') return options;
    io.stdout(`${usage}\n`);
    return 0;
  } catch (error) {
    if (!hasCode(error, 'invalid_request')) throw error;
    io.stderr(`${name}: ${error.message}\n\n${usage}\n`);
    return 2;
  }
}

/** `readCommandLine` of the script `name` (process.argv unless `argv` is given), exiting as `readOptions` says. */
export function parseCommandLine<Spec extends CommandLineSpec, Options>(
  name: string,
  usage: string,
  spec: Spec,
  interpret: (line: CommandLine<Spec>) => Options,
  argv: readonly string[] = process.argv.slice(2),
): Options {
  const io = {
    stdout: (text: string) => process.stdout.write(text),
    stderr: (text: string) => process.stderr.write(text),
  };
  const options = readOptions(name, usage, io, () =>
    readCommandLine(spec, argv, (line) => ({ interpreted: interpret(line) })),
  );
  if (typeof options === 'number') process.exit(options);
  return options.interpreted;
}

/** `--flag` as a number from `min` to `max`, whole if `integer`; an `invalid_request` otherwise. */
export function numberArg(
  flag: string,
  raw: string | undefined,
  { min = 0, max = Number.POSITIVE_INFINITY, integer = false } = {},
): number {
  const value = Number(raw);
  const valid = raw?.trim() && Number.isFinite(value) && value >= min && value <= max;
  if (!valid || (integer && !Number.isInteger(value))) {
    const kind = integer ? 'a whole number' : 'a number';
    const bounded = max !== Number.POSITIVE_INFINITY;
    // A bounded value is quoted, so an empty one shows.
    const range = bounded ? `from ${min} to ${max}` : `≥ ${min}`;
    const given = raw === undefined ? '' : `, not ${bounded ? JSON.stringify(raw) : raw}`;
    throw invalidRequest(`--${flag} must be ${kind} ${range}${given}`);
  }
  return value;
}

/** The collection `--collection` names; else the command is refused, naming those the config has. */
export function namedCollection<Collection extends { readonly name: string }>(
  collections: readonly Collection[],
  name: string,
): Collection {
  const collection = collections.find((c) => c.name === name);
  if (collection) return collection;
  const names = collections.map((c) => c.name).join(', ');
  throw refused(`no collection ${JSON.stringify(name)} in the config (it has: ${names})`);
}

/** What `run` returns; what it throws, refused (`prefix` before the message): nothing changed yet. */
export function refusing<T>(run: () => T, prefix = ''): T {
  try {
    return run();
  } catch (error) {
    throw refused(`${prefix}${(error as Error).message}`);
  }
}
