import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { resolveConfig } from '../src/config/config';
import type { ConfigBundle } from '../src/runtime/config-bundle';

const ROOT = resolve(import.meta.dirname, '..');

/** The config the builds bundle: SHARDLINE_CONFIG (as the Node server reads it) or the demo config. */
export function buildConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.SHARDLINE_CONFIG?.trim();
  return named ? resolve(named) : resolve(ROOT, 'config/shardline.config.json');
}

/**
 * Reads a config and every boundaries file it names (paths relative to the
 * config, as on Node) into one bundle, and resolves it exactly as the service
 * will, so a bad config or boundaries file fails the build, not the deployment.
 */
export function bundleConfig(configPath: string): ConfigBundle {
  const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
  const config = readJson(configPath);
  const boundaries: Record<string, unknown> = {};
  const inProject = relative(ROOT, configPath);
  const source = inProject.startsWith('..') ? configPath : inProject;
  resolveConfig(config, {
    readBoundaries: (file) => (boundaries[file] = readJson(resolve(dirname(configPath), file))),
    source,
  });
  return { config, boundaries, source };
}

/** Writes the bundle as JSON (the `shardline:config-bundle` module of the Worker and Lambda builds). */
export function writeConfigBundle(configPath: string, outFile: string): ConfigBundle {
  const bundle = bundleConfig(configPath);
  mkdirSync(dirname(outFile), { recursive: true });
  // Written aside and renamed: a running `wrangler dev` never reads half a file.
  const partial = `${outFile}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(bundle)}\n`);
  renameSync(partial, outFile);
  return bundle;
}
