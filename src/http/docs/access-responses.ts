/**
 * The answers of the middleware every route passes through (app.ts), declared on each operation as the document's
 * `security` is: 401 and 403 from bearerAuth where a key is needed (all but `security: []`), 429 from rateLimit
 * (and from bearerAuth's limit on failed authentications) everywhere but the health check, never rate-limited.
 */
const NEVER_RATE_LIMITED = new Set(['/healthz']);

const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const UNAUTHORIZED = errorAnswer('no API key, or one that is not valid (only when the service runs with API_KEYS)');
const FORBIDDEN = errorAnswer("the API key's scope does not allow this (a read key writing, a metrics key)");
const RATE_LIMITED = errorAnswer('over RATE_LIMIT_PER_SECOND, or too many failed authentications; see Retry-After');

type Operation = { security?: unknown[]; responses?: Record<string, unknown> };

/** `document` with the middleware's answers declared on its operations (in place; the document is returned). */
export function withAccessResponses<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const open = Array.isArray(operation.security) && operation.security.length === 0;
      const responses = {
        ...operation.responses,
        ...(!open && { 401: UNAUTHORIZED, 403: FORBIDDEN }),
        ...(!NEVER_RATE_LIMITED.has(path) && { 429: RATE_LIMITED }),
      };
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  return document;
}
