import type { Transport } from './transport.js';

/**
 * Every page of the listing at `path` in order, following `nextCursor` until the end (`null`). A collection's
 * listing and a group's take the same query and answer the same pages: both are read here.
 */
export async function* listingPages<Answer extends { readonly nextCursor: string | null }>(
  transport: Transport,
  path: string,
  query: object,
  pageSize = 1000,
): AsyncGenerator<Answer> {
  let cursor: string | undefined;
  do {
    const answer = await transport.send({
      method: 'GET',
      path,
      query: { ...queryText(query), limit: String(pageSize), cursor },
    });
    const page = answer.body as Answer;
    yield page;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** The query as URL text; `fields` may be given as names too (`['title', 'year']`). */
function queryText(query: object): Record<string, string | undefined> {
  const { fields, ...rest } = query as Record<string, unknown> & { fields?: string | readonly string[] };
  const text = Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, value?.toString()]));
  return { ...text, fields: Array.isArray(fields) ? fields.join(',') : (fields as string | undefined) };
}
