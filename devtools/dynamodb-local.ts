import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stopChild } from './child-process';
import { waitUntilReady } from './wait-until';

/**
 * AWS DynamoDB Local, the official jar, taken from the npm package that ships it
 * (amplify-dynamodb-simulator). Only its `emulator/` folder is extracted, once,
 * into .cache/ — the package's own dependencies (~350 MB) are never installed.
 */
const PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const INTEGRITY = 'sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==';
/** Where the jar and its native libraries are unpacked (under the project's .cache/). */
export const JAR_DIR = resolve(import.meta.dirname, '../.cache/dynamodb-local');

/** The path of DynamoDBLocal.jar, fetched and checked against its integrity hash the first time. */
export function ensureDynamoDbLocalJar(): string {
  const jar = join(JAR_DIR, 'DynamoDBLocal.jar');
  if (existsSync(jar)) return jar;
  const work = mkdtempSync(join(tmpdir(), 'ddb-local-'));
  try {
    const tarball = execFileSync('npm', ['pack', PACKAGE, '--pack-destination', work, '--silent'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop()!;
    const path = join(work, tarball);
    const digest = `sha512-${createHash('sha512').update(readFileSync(path)).digest('base64')}`;
    if (digest !== INTEGRITY) throw new Error(`${PACKAGE}: integrity mismatch (${digest})`);
    execFileSync('tar', ['xzf', path, '-C', work, 'package/emulator']);
    mkdirSync(resolve(JAR_DIR, '..'), { recursive: true });
    renameSync(join(work, 'package/emulator'), JAR_DIR);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return jar;
}

/** A TCP port free on the loopback interface just now (the OS picks it; a race is possible but rare). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningEngine {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** Starts DynamoDB Local in memory on a free loopback port and waits until it answers. */
export async function startDynamoDbLocal(): Promise<RunningEngine> {
  const jar = ensureDynamoDbLocalJar();
  const port = await freePort();
  const child: ChildProcess = spawn(
    'java',
    [
      `-Djava.library.path=${join(JAR_DIR, 'DynamoDBLocal_lib')}`,
      '-jar',
      jar,
      '-inMemory',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntilReady(
    async () => {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'DynamoDB_20120810.ListTables',
          authorization:
            'AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/dynamodb/aws4_request, ' +
            'SignedHeaders=host, Signature=0',
        },
        body: '{}',
      });
      return response.status < 500;
    },
    {
      gaveUp: () => (child.exitCode === null ? undefined : `DynamoDB Local exited (${child.exitCode}): ${stderr}`),
      timedOut: () => `DynamoDB Local did not answer within 60 s: ${stderr}`,
    },
  );
  return {
    endpoint,
    stop: () => stopChild(child),
  };
}
