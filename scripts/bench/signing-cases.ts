import { createHmac } from 'node:crypto';
import { KeyedSha256 } from '../../src/store/keyed-sha256';
import type { MicroCase } from './micro-cases';

/**
 * The HMAC that signs every DynamoDB request (SigV4's last step, keyed by the cached signing
 * key), as the SDK's own hash makes it (node:crypto given the key's bytes) and as
 * `KeyedSha256` does (a KeyObject): on Node 24 the first throws and catches inside Node.
 */
export function signingCases(): MicroCase[] {
  const signingKey = new Uint8Array(32).map((_, i) => (i * 37 + 11) & 0xff);
  const stringToSign = new TextEncoder().encode(
    'AWS4-HMAC-SHA256\n20261126T123456Z\n20261126/eu-west-1/dynamodb/aws4_request\n' + 'a1'.repeat(32),
  );
  const bytes = 'sign a request: HMAC keyed by its bytes (the SDK hash)';
  return [
    {
      name: bytes,
      unit: 'HMACs',
      batch: 2_000,
      run() {
        let length = 0;
        for (let n = 0; n < this.batch; n++) {
          const key = Buffer.from(signingKey.buffer, signingKey.byteOffset, signingKey.byteLength);
          length += createHmac('sha256', key).update(stringToSign).digest().length;
        }
        return length;
      },
    },
    {
      name: 'sign a request: HMAC keyed by a KeyObject (KeyedSha256)',
      unit: 'HMACs',
      batch: 2_000,
      baseline: bytes,
      run() {
        const digests: Promise<Uint8Array>[] = [];
        for (let n = 0; n < this.batch; n++) {
          const hash = new KeyedSha256(signingKey);
          hash.update(stringToSign);
          digests.push(hash.digest()); // computed before it returns: the promise only carries it
        }
        return digests.length;
      },
    },
  ];
}
