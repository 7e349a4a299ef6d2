/**
 * The answers of the middleware every route passes through (app.ts), added to each operation of the document as
 * the document's `security` is: 401 and 403 from bearerAuth on every operation that needs a key (all but those
 * with `security: []`), 429 from rateLimit (and from bearerAuth's limit on failed authentications) on every
 * operation but the health check, which is never rate-limited.
 */
const NEVER_RATE_LIMITED = new Set(['/healthz']);

const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const UNAUTHORIZED = errorAnswer('no API key, or one that is not valid (only when the service runs with API_KEYS)');
const FORBIDDEN = errorAnswer("the API key's scope does not allow this (a read key writing, a metrics key)");
const RATE_LIMITED = errorAnswer('over RATE_LIMIT_PER_SECOND, or too many failed authentications; see Retry-After');

interface Operation {
  security?: unknown[];
  responses?: Record<string, unknown>;
}

/** `document` with the middleware's answers declared on its operations (in place; the document is returned). */
export function withAccessResponses<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const extra: Record<string, unknown> = {};
      if (!(Array.isArray(operation.security) && operation.security.length === 0)) {
        extra[401] = UNAUTHORIZED;
        extra[403] = FORBIDDEN;
      }
      if (!NEVER_RATE_LIMITED.has(path)) extra[429] = RATE_LIMITED;
      operation.responses = sortedByStatus({ ...operation.responses, ...extra });
    }
  }
  return document;
}

function sortedByStatus(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
