import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openapiDocument } from '../../scripts/openapi-document';

/**
 * The contract check: an answer the service gave, held against the OpenAPI document it serves (built once, as
 * `scripts/openapi-document.ts` builds it: every optional route in). The path must match exactly one documented
 * path template, the method an operation there, the status a response that operation declares (or its `4XX`
 * or `default` key), the content type one the response declares, and a JSON body its schema (JSON Schema
 * 2020-12, as OpenAPI 3.1 schemas are). `checkContract` answers the problems, none when the answer conforms.
 */

interface MediaType {
  schema?: unknown;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
}

/** One documented operation: how requests find it, what it answers. */
export interface DocumentedOperation {
  method: string;
  path: string;
  operationId: string;
  statuses: string[];
}

/**
 * Requests the document leaves out on purpose, with why. Anything else it does not describe must be refused
 * the way the app refuses an unknown route: a 4xx (a 404, a 405 for a known path) with an `Error` body.
 */
export const UNDOCUMENTED: { method: string; path: RegExp; reason: string }[] = [
  {
    method: 'GET',
    path: /^\/docs\/assets\/[^/]+$/,
    reason: "the /docs page's scripts and stylesheets (swagger-ui-dist files): static files, not API",
  },
  {
    method: 'OPTIONS',
    path: /^\//,
    reason: 'CORS preflights, answered by the CORS middleware for every path (a browser protocol, not an operation)',
  },
];

/**
 * A request no operation describes is refused before or instead of a route (a 404 or a 405 with Allow, or the
 * middleware's 400 for a malformed %-escape, 401, 403, 414, 429, 431): some 4xx, always with an `Error` body.
 */
const isRefusal = (status: number) => status >= 400 && status < 500;

const COMPONENTS_ID = 'https://shardline.invalid/components.json';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

interface Contract {
  document: Document;
  operations: (DocumentedOperation & { pattern: RegExp; responses: Record<string, ResponseObject> })[];
  validator: (schema: unknown) => ValidateFunction;
  errorSchema: ValidateFunction;
}

let loading: Promise<Contract> | undefined;

function loadContract(): Promise<Contract> {
  loading ??= openapiDocument().then((value) => buildContract(value as Document));
  return loading;
}

function buildContract(document: Document): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // `#/components/...` in the document points into the document: the components under an $id of their own.
  ajv.addSchema({ $id: COMPONENTS_ID, components: document.components ?? {} });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (schema: unknown): ValidateFunction => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(rebaseRefs(schema) as object);
      compiled.set(key, validate);
    }
    return validate;
  };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId ?? `${method} ${path}`,
        statuses: Object.keys(operation.responses ?? {}),
        responses: resolvedResponses(document, operation.responses ?? {}),
        pattern: templatePattern(path),
      })),
  );
  return { document, operations, validator, errorSchema: validator({ $ref: '#/components/schemas/Error' }) };
}

const SHARED_RESPONSES = '#/components/responses/';

/** `responses` with each reference to a shared answer (`#/components/responses/…`) replaced by that answer. */
function resolvedResponses(document: Document, responses: Record<string, ResponseObject>) {
  const shared = (document.components?.responses ?? {}) as Record<string, ResponseObject>;
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const ref = (response as { $ref?: unknown }).$ref;
      if (typeof ref !== 'string') return [status, response];
      const answer = ref.startsWith(SHARED_RESPONSES) && shared[ref.slice(SHARED_RESPONSES.length)];
      if (!answer) throw new Error(`the document refers to ${ref}, which it does not declare`);
      return [status, answer];
    }),
  );
}

/** `/collections/{collection}/items` as a pattern: a parameter is one whole, non-empty path segment. */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** A copy of `schema` whose local `$ref`s point into the components schema. */
function rebaseRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebaseRefs);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${COMPONENTS_ID}${value}`
        : rebaseRefs(value),
    ]),
  );
}

/** Every operation the document describes, with the statuses it declares. */
export async function documentedOperations(): Promise<DocumentedOperation[]> {
  const { operations } = await loadContract();
  return operations.map(({ method, path, operationId, statuses }) => ({ method, path, operationId, statuses }));
}

/** The answer the check held against the document: which operation it found, and what does not conform. */
export interface ContractResult {
  operation?: DocumentedOperation;
  /** The response key the status matched: `200`, `4XX`, `default`. */
  responseKey?: string;
  problems: string[];
}

/**
 * Holds one answer against the document. `path` is the path requested (a query string is ignored),
 * `contentType` the answer's Content-Type header, `body` its text ('' for none).
 */
export async function checkContract(
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: string,
): Promise<ContractResult> {
  const contract = await loadContract();
  const pathname = path.split(/[?#]/)[0] ?? path;
  const upper = method.toUpperCase();
  // HEAD is GET without a body (Hono answers it from the GET route).
  const asked = upper === 'HEAD' ? 'GET' : upper;
  const byPath = contract.operations.filter((operation) => operation.pattern.test(pathname));
  const templates = [...new Set(byPath.map((operation) => operation.path))];
  if (templates.length > 1) {
    return { problems: [`${pathname} matches ${templates.length} documented paths: ${templates.join(', ')}`] };
  }
  const operation = byPath.find((candidate) => candidate.method === asked);
  if (!operation)
    return { problems: checkUnrouted(contract, upper, pathname, templates[0], status, contentType, body) };
  const { pattern: _pattern, responses, ...described } = operation;
  const key = responseKeyFor(responses, status);
  const where = `${operation.operationId} (${operation.method} ${operation.path})`;
  if (!key) {
    const declared = described.statuses.join(', ');
    return {
      operation: described,
      problems: [`status ${status} is not declared for ${where} (declared: ${declared})`],
    };
  }
  // A HEAD answer carries GET's headers and no body: nothing to hold against the declared content.
  const response = responses[key] ?? {};
  const problems = upper === 'HEAD' ? [] : checkBody(contract, response, `${where} ${key}`, contentType, body);
  return { operation: described, responseKey: key, problems };
}

function responseKeyFor(responses: Record<string, ResponseObject>, status: number): string | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  if (exact in responses) return exact;
  if (range in responses) return range;
  if (range.toLowerCase() in responses) return range.toLowerCase();
  return 'default' in responses ? 'default' : undefined;
}

function checkBody(
  contract: Contract,
  response: ResponseObject,
  where: string,
  contentType: string | null,
  body: string,
): string[] {
  const content = response.content ?? {};
  const declared = Object.keys(content);
  if (declared.length === 0) return body === '' ? [] : [`${where} declares no body, got ${body.length} characters`];
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const mediaKey = declared.find((type) => type.toLowerCase() === media);
  if (!mediaKey) return [`${where}: content type ${contentType ?? '(none)'} is not declared (${declared.join(', ')})`];
  const schema = content[mediaKey]?.schema;
  if (schema === undefined || !/^application\/(?:[\w.-]+\+)?json$/.test(media)) return [];
  return validateJson(contract.validator(schema), where, body);
}

function validateJson(validate: ValidateFunction, where: string, body: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return [`${where}: the body is not JSON: ${body.slice(0, 200)}`];
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) => `${where}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
  );
}

/** A request no operation describes: left out on purpose, or refused the way an unknown route is. */
function checkUnrouted(
  contract: Contract,
  method: string,
  pathname: string,
  template: string | undefined,
  status: number,
  contentType: string | null,
  body: string,
): string[] {
  if (UNDOCUMENTED.some((entry) => entry.method === method && entry.path.test(pathname))) return [];
  const asked = template ? `${method} on ${template}` : `${method} ${pathname}`;
  if (!isRefusal(status)) return [`no documented operation for ${asked}, yet it answered ${status}`];
  const where = `${asked} (no documented operation) ${status}`;
  if (method === 'HEAD') return [];
  if (!/^application\/json\b/.test(contentType ?? '')) return [`${where}: content type ${contentType} is not JSON`];
  return validateJson(contract.errorSchema, where, body);
}

/** What a response told of the request it answers, for the wrapper below. */
interface Asked {
  method: string;
  path: string;
  signal: AbortSignal | null | undefined;
}

type Fetch = (request: Request, ...rest: unknown[]) => Response | Promise<Response>;
type RequestFn = (input: unknown, init?: RequestInit, ...rest: unknown[]) => Response | Promise<Response>;

/**
 * `app` with every answer of `app.fetch` and `app.request` held against the document: one that does not conform
 * throws, naming the request, the status and the problems. Not checked: an answer to a request whose caller went
 * away (its signal aborted, a 499 that only logs and metrics see), as no client reads it.
 */
export function contractChecked<App extends object>(checkedApp: App): App {
  const app = checkedApp as unknown as { fetch: Fetch; request: RequestFn };
  const fetch: Fetch = async (request, ...rest) =>
    checked({ method: request.method, path: new URL(request.url).pathname, signal: request.signal }, () =>
      app.fetch(request, ...rest),
    );
  const request: RequestFn = async (input, init, ...rest) =>
    checked(askedOf(input, init), () => app.request(input, init, ...rest));
  return new Proxy(checkedApp, {
    get(target, property) {
      if (property === 'fetch') return fetch;
      if (property === 'request') return request;
      const value: unknown = Reflect.get(target, property, target);
      // Hono's methods read private fields: they run on the app itself, never on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function askedOf(input: unknown, init: RequestInit | undefined): Asked {
  if (input instanceof Request) {
    return {
      method: init?.method ?? input.method,
      path: new URL(input.url).pathname,
      signal: init?.signal ?? input.signal,
    };
  }
  const path = new URL(String(input), 'http://localhost').pathname;
  return { method: init?.method ?? 'GET', path, signal: init?.signal };
}

async function checked(asked: Asked, answer: () => Response | Promise<Response>): Promise<Response> {
  const response = await answer();
  if (asked.signal?.aborted) return response;
  const body = await response.clone().text();
  const { problems } = await checkContract(
    asked.method,
    asked.path,
    response.status,
    response.headers.get('content-type'),
    body,
  );
  if (problems.length > 0) {
    throw new Error(
      `the answer to ${asked.method} ${asked.path} (${response.status}) breaks the OpenAPI document:\n  ` +
        problems.join('\n  '),
    );
  }
  return response;
}
