import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * One HTTP/1.1 connection driven by hand, to see what a server does with the
 * connection itself: whether a second request on it is answered, whether it closes.
 */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private closedFlag = false;
  private waiters: (() => void)[] = [];
  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closedFlag = true;
      this.wake();
    });
    socket.on('error', () => undefined); // a reset shows as a close
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes raw bytes (a request, or part of one). */
  send(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.writable) this.socket.write(data, () => resolve());
      else resolve();
    });
  }

  /** The next response on the connection (Content-Length bodies), or undefined if it closes first. */
  async response(timeoutMs = 5000): Promise<RawResponse | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.closedFlag) return undefined;
      if (Date.now() > deadline) throw new Error('no response in time');
      await this.wait(deadline - Date.now());
    }
  }

  /** Whether the server closes the connection within `timeoutMs`. */
  async closes(timeoutMs = 3000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closedFlag && Date.now() < deadline) await this.wait(deadline - Date.now());
    return this.closedFlag;
  }

  close(): void {
    this.socket.destroy();
  }

  private take(): RawResponse | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return undefined;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(statusLine?.split(' ')[1]), headers, body };
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(1, ms));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
