import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/runtimes';

const BUDGET_KIB = 250;

describe('npx wrangler deploy --dry-run', () => {
  it(`bundles the Worker within ${BUDGET_KIB} KiB gzipped, the docs renderer kept out as static assets`, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'shardline-worker-'));
    const { stdout } = await promisify(execFile)(
      resolve(ROOT, 'node_modules/.bin/wrangler'),
      ['deploy', '--dry-run', '--outdir', outDir],
      {
        cwd: ROOT,
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
        timeout: 120_000,
      },
    );
    const reported = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(stdout);
    expect(reported, stdout).not.toBeNull();
    const scripts = readdirSync(outDir).filter((file) => file.endsWith('.js'));
    // Named after the entry, src/runtime/worker/main.ts.
    expect(scripts).toEqual(['main.js']);
    const code = readFileSync(join(outDir, 'main.js'));
    const gzipKiB = gzipSync(code).length / 1024;
    console.log(
      `Worker bundle: ${reported![1]} KiB, ${reported![2]} KiB gzipped (wrangler)` +
        `; ${gzipKiB.toFixed(1)} KiB gzipped (zlib)`,
    );
    expect(Number(reported![2])).toBeLessThanOrEqual(BUDGET_KIB);
    expect(gzipKiB).toBeLessThanOrEqual(BUDGET_KIB);
    // The config and its boundaries are bundled in; the docs renderer is a static asset, not code.
    const text = code.toString();
    expect(text.includes('"albums-hash"') && text.includes('"barstow / crazy"'), 'config bundled').toBe(true);
    expect(stdout).toMatch(/env\.ASSETS/);
  });
});
