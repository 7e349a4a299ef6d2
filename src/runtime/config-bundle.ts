/**
 * The config and every boundaries file it names, captured at build time (devtools/build-config.ts) for the
 * Worker and Lambda, which have no project files to read: they import it as `shardline:config-bundle`.
 */
export interface ConfigBundle {
  /** The config file as written (SHARDLINE_CONFIG at build time, or config/shardline.config.json). */
  readonly config: unknown;
  /** Each boundaries file by the name the config gives it (relative to the config file). */
  readonly boundaries: Readonly<Record<string, unknown>>;
  /** Where the config came from, for messages. */
  readonly source: string;
}

/** `readBoundaries` for resolveConfig over a bundle: a file missing from it is a build mistake. */
export function bundledBoundaries(bundle: ConfigBundle): (file: string) => unknown {
  return (file) => {
    if (!Object.hasOwn(bundle.boundaries, file)) {
      throw new Error(
        `boundaries file ${file} was not bundled with ${bundle.source}; rebuild (npm run build / wrangler)`,
      );
    }
    return bundle.boundaries[file];
  };
}
