import { createHash, createHmac, createSecretKey, type Hash, type Hmac, type KeyObject } from 'node:crypto';
import { internalError } from '../core/errors';

type Secret = string | ArrayBuffer | ArrayBufferView;

/** The last KeyObject made from each key the signer held, with the bytes it was made from. */
const keyObjects = new WeakMap<object, { readonly bytes: Buffer; readonly key: KeyObject }>();

/**
 * SHA-256 and HMAC-SHA-256 for the SDK's SigV4 signer (the client's `sha256` setting), with HMAC keys given
 * to node:crypto as KeyObjects: on Node 24, `createHmac` given a key's bytes throws and catches an error
 * inside Node, and the signer MACs every request with bytes (docs/performance.md).
 */
export class KeyedSha256 {
  readonly digestLength = 32;
  private hash: Hash | Hmac;
  private finished = false;

  constructor(private readonly secret?: Secret) {
    this.hash = this.start();
  }

  update(data: Uint8Array): void {
    if (this.finished) throw internalError('Attempted to update an already finished hash.');
    this.hash.update(data);
  }

  async digest(): Promise<Uint8Array> {
    this.finished = true;
    const digest = this.hash.digest();
    return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
  }

  reset(): void {
    this.hash = this.start();
    this.finished = false;
  }

  private start(): Hash | Hmac {
    const secret = this.secret;
    if (secret === undefined) return createHash('sha256');
    // A string takes node:crypto's quick path already; only bytes are checked by throwing.
    return createHmac('sha256', typeof secret === 'string' ? secret : keyObjectOf(secret));
  }
}

function keyObjectOf(secret: ArrayBuffer | ArrayBufferView): KeyObject {
  const view = ArrayBuffer.isView(secret)
    ? Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength)
    : Buffer.from(secret);
  const known = keyObjects.get(secret);
  // Held by identity, checked by content: whoever holds the key could write other bytes into it.
  if (known?.bytes.equals(view)) return known.key;
  const bytes = Buffer.from(view);
  const key = createSecretKey(bytes);
  keyObjects.set(secret, { bytes, key });
  return key;
}
