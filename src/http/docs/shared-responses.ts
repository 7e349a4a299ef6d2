import { ERROR_ANSWERS } from '../schemas';

type Name = keyof typeof ERROR_ANSWERS;
type Operation = { security?: unknown[]; responses?: Record<string, unknown> };
type Document = { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

/**
 * The answers of the middleware every route passes through (app.ts), declared on each operation as the document's
 * `security` is: 401 and 403 from bearerAuth where a key is needed (all but `security: []`), 429 from rateLimit
 * (and from bearerAuth's limit on failed authentications) everywhere but the health check, never rate-limited.
 */
const NEVER_RATE_LIMITED = new Set(['/healthz']);

const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };
const RESPONSES = '#/components/responses/';
const reference = (name: Name) => ({ $ref: `${RESPONSES}${name}` });
const NAMES = new Map(Object.entries(ERROR_ANSWERS).map(([name, answer]) => [answer.description, name as Name]));

/**
 * `document` (changed in place and returned) with the middleware's answers declared on its operations, and every
 * error answer of `ERROR_ANSWERS` declared once under `components.responses` and referred to where it is given:
 * one description for tools and the generated client, not one copy an operation.
 */
export function withSharedResponses<T>(document: T): T {
  const used = new Set<Name>();
  for (const [path, item] of Object.entries((document as Document).paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const open = Array.isArray(operation.security) && operation.security.length === 0;
      const responses: Record<string, unknown> = {
        ...operation.responses,
        ...(!open && { 401: reference('Unauthorized'), 403: reference('Forbidden') }),
        ...(!NEVER_RATE_LIMITED.has(path) && { 429: reference('RateLimited') }),
      };
      for (const [status, response] of Object.entries(responses)) {
        const name = nameOf(response);
        if (name === undefined) continue;
        responses[status] = reference(name);
        used.add(name);
      }
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  const shared = (Object.keys(ERROR_ANSWERS) as Name[]).filter((name) => used.has(name));
  const answer = (name: Name) => ({
    description: ERROR_ANSWERS[name].description,
    content: { 'application/json': { schema: ERROR_SCHEMA } },
  });
  const components = (document as Document).components ?? {};
  components.responses = {
    ...(components.responses as object | undefined),
    ...Object.fromEntries(shared.map((name) => [name, answer(name)])),
  };
  (document as Document).components = components;
  return document;
}

/** The shared answer `response` is (a reference to it, or a copy with nothing else: no headers). */
function nameOf(response: unknown): Name | undefined {
  if (!response || typeof response !== 'object') return undefined;
  const { $ref, description, content, ...rest } = response as Record<string, unknown>;
  if (typeof $ref === 'string') {
    const name = $ref.slice(RESPONSES.length) as Name;
    return $ref.startsWith(RESPONSES) && name in ERROR_ANSWERS ? name : undefined;
  }
  if (typeof description !== 'string' || Object.keys(rest).length > 0) return undefined;
  const json = (content as Record<string, { schema?: { $ref?: string } }> | undefined)?.['application/json'];
  const onlyError = json?.schema?.$ref === ERROR_SCHEMA.$ref && Object.keys(content as object).length === 1;
  return onlyError ? NAMES.get(description) : undefined;
}
