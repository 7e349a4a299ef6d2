import { beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

/** What answers say about themselves: Server-Timing. */
describe('HTTP: Server-Timing', () => {
  let app: App;
  beforeAll(async () => {
    ({ app } = await startTestService('dynalite'));
  });

  it('times a listing page in Server-Timing: dynamodb and total, in ms', async () => {
    const page = await app.request('/collections/albums/items?limit=5');
    expect(page.status).toBe(200);
    const metrics = new Map(
      (page.headers.get('server-timing') ?? '').split(',').map((entry) => {
        const [name, dur] = entry.trim().split(';dur=');
        return [name, Number(dur)] as const;
      }),
    );
    expect([...metrics.keys()]).toEqual(['dynamodb', 'total']);
    expect(metrics.get('dynamodb')).toBeGreaterThanOrEqual(0);
    expect(metrics.get('total')).toBeGreaterThanOrEqual(metrics.get('dynamodb')!);
    // No timing on answers that are not a page, nor on other routes.
    expect((await app.request('/collections/albums/items?limit=0')).headers.get('server-timing')).toBeNull();
    expect((await app.request('/collections')).headers.get('server-timing')).toBeNull();
  });
});
