import { ERROR_ANSWERS } from '../schemas';

type Name = keyof typeof ERROR_ANSWERS;
type Operation = { security?: unknown[]; responses?: Record<string, unknown> };
type Document = { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

/** The health check is never rate-limited: it has no 429. */
const NEVER_RATE_LIMITED = new Set(['/healthz']);

/** An error answer as the document writes it. */
const answer = (name: Name) => ({
  description: ERROR_ANSWERS[name].description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
/** Each shared answer by its JSON text: an operation's answer that is a copy of one, with nothing else, names it. */
const NAMES = new Map((Object.keys(ERROR_ANSWERS) as Name[]).map((name) => [JSON.stringify(answer(name)), name]));

/**
 * `document` (changed in place and returned) with the answers of the middleware every route passes through (app.ts)
 * declared on its operations as its `security` is: 401 and 403 where a key is needed, 429 but on the health check.
 * Every error answer of `ERROR_ANSWERS` is declared once under `components.responses` and referred to where given:
 * one description for tools and the generated client, not one copy an operation.
 */
export function withSharedResponses<T>(document: T): T {
  const used = new Set<Name>();
  for (const [path, item] of Object.entries((document as Document).paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (!operation.responses) continue;
      const open = operation.security?.length === 0;
      const responses: Record<string, unknown> = {
        ...operation.responses,
        ...(!open && { 401: answer('Unauthorized'), 403: answer('Forbidden') }),
        ...(!NEVER_RATE_LIMITED.has(path) && { 429: answer('RateLimited') }),
      };
      for (const [status, response] of Object.entries(responses)) {
        const name = NAMES.get(JSON.stringify(response));
        if (name === undefined) continue;
        responses[status] = { $ref: `#/components/responses/${name}` };
        used.add(name);
      }
      operation.responses = responses;
    }
  }
  const shared = (Object.keys(ERROR_ANSWERS) as Name[]).filter((name) => used.has(name));
  (document as Document).components ??= {};
  const components = (document as Document).components!;
  components.responses = {
    ...(components.responses as object | undefined),
    ...Object.fromEntries(shared.map((name) => [name, answer(name)])),
  };
  return document;
}
