/**
 * The floor of `npm run bench:requests`, in a process of its own: a route's DynamoDB calls as
 * the router sent them, signed (SigV4) and sent over keep-alive, their answers parsed, the items
 * turned into plain JSON and written as one JSON text. Reads one command a line on stdin and
 * answers each with one line: `{ count, latencies }`. Its CPU is read from outside (/proc).
 */
import { createHash, createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import type { DynamoCall } from './record-proxy';
import { drive, type PhaseLength } from './drive';

interface Command extends PhaseLength {
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly calls: readonly DynamoCall[];
  /** Text in the calls' bodies replaced by `keyPrefix` and the request's number (a new item each). */
  readonly keyFrom?: string;
  readonly keyPrefix?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const REGION = 'us-east-1';
const SECRET = 'shardline';
let signingKey: { date: string; key: Buffer } | undefined;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

function keyFor(date: string): Buffer {
  if (signingKey?.date !== date) {
    const key = ['dynamodb', 'aws4_request'].reduce(hmac, hmac(hmac(`AWS4${SECRET}`, date), REGION));
    signingKey = { date, key };
  }
  return signingKey.key;
}

function send(url: URL, accessKeyId: string, call: DynamoCall, body: string): Promise<string> {
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
  const date = amzDate.slice(0, 8);
  const signed = 'content-type;host;x-amz-date;x-amz-target';
  const canonical = `POST\n/\n\ncontent-type:application/x-amz-json-1.0\nhost:${url.host}\nx-amz-date:${amzDate}\nx-amz-target:${call.target}\n\n${signed}\n${sha256(body)}`;
  const scope = `${date}/${REGION}/dynamodb/aws4_request`;
  const signature = hmac(keyFor(date), `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256(canonical)}`).toString('hex');
  const headers = {
    'content-type': 'application/x-amz-json-1.0',
    'x-amz-date': amzDate,
    'x-amz-target': call.target,
    'content-length': Buffer.byteLength(body),
    authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}, SignedHeaders=${signed}, Signature=${signature}`,
  };
  return new Promise((resolve, reject) => {
    const sent = request(
      { agent, host: url.hostname, port: url.port, method: 'POST', path: '/', headers },
      (answer) => {
        answer.setEncoding('utf8');
        let text = '';
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => resolve(text));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

type Attribute = Record<string, unknown>;

/** An attribute value as plain JSON (numbers stay their text: nothing is lost, as the router keeps them). */
function plain(value: Attribute): unknown {
  const [type, inner] = Object.entries(value)[0] ?? [];
  if (type === 'M') return plainItem(inner as Record<string, Attribute>);
  if (type === 'L') return (inner as Attribute[]).map(plain);
  if (type === 'NULL') return null;
  return inner;
}

function plainItem(item: Record<string, Attribute>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) out[name] = plain(value);
  return out;
}

/** Every item an answer holds (Query's Items, GetItem's Item, BatchGetItem's Responses). */
function itemsOf(answer: Record<string, unknown>): Record<string, Attribute>[] {
  if (Array.isArray(answer.Items)) return answer.Items;
  if (answer.Item) return [answer.Item as Record<string, Attribute>];
  if (answer.Responses) return Object.values(answer.Responses as Record<string, Record<string, Attribute>[]>).flat();
  return [];
}

async function run(command: Command) {
  const url = new URL(command.endpoint);
  const latencies = await drive(command, async (i) => {
    const own = (body: string) =>
      command.keyFrom ? body.replaceAll(command.keyFrom, `${command.keyPrefix}${i}`) : body;
    const answers = await Promise.all(
      command.calls.map((call) => send(url, command.accessKeyId, call, own(call.body))),
    );
    const items = answers.flatMap((text) => itemsOf(JSON.parse(text) as Record<string, unknown>).map(plainItem));
    JSON.stringify({ items });
  });
  return { count: latencies.length, latencies };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  process.stdout.write(`${JSON.stringify(await run(JSON.parse(line) as Command))}\n`);
}
agent.destroy();
