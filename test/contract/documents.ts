/**
 * The vendor's OpenAPI documents (test/contract/vendor/, copied unchanged from the platform's
 * public docs under their MIT licence) as validators: which documented operation a request is,
 * whether the request is what the operation takes, and whether an answer is one it documents.
 *
 * openapi-backend does the OpenAPI work (routing a method and path to an operation under the
 * document's server path, resolving `$ref`s, request and response validation with Ajv for both
 * OpenAPI 3.0 `nullable` and 3.1 type arrays); ajv-formats checks `format` (`uri`, `date-time`).
 * The documents are test data only: nothing in src/ reads them.
 */
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIBackend, ValidationContext, type Context, type Document, type Operation } from 'openapi-backend';

/** The vendor's documents, by the name the route list uses. */
export const DOCUMENTS = {
  /** Agent jobs (v2), admin API 2.0.0. */
  admin: 'admin-openapi.json',
  /** Static export 1.0.0. */
  staticExport: 'static-export-openapi.json',
  /** Deployments, previews, automations 1.0.0. */
  platform: 'openapi.json',
  /** Reader analytics 1.0.0. */
  analytics: 'analytics.openapi.json',
} as const;

export type DocumentName = keyof typeof DOCUMENTS;

/** Where the copies are: the tests run from out/test/contract, the documents stay in test/contract/vendor. */
export const VENDOR_DIR = join(__dirname, '..', '..', '..', 'test', 'contract', 'vendor');

/** One problem found, in words a failing assertion can show. */
export type Finding = string;

/** A request as it went over the wire (the simulator's log entry). */
export interface WireRequest {
  method: string;
  /** The raw path, percent-encoded as sent. */
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

export interface WireReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Statuses a route may answer although its document does not list them: the field notes say to
 * expect 401, 403, 429 and 5xx on every route. Their body must still be the document's `Error`.
 */
export const EXPECTED_ANYWAY = [401, 403, 429, 500, 502, 503, 504] as const;

/** And 404 for the platform's deployment routes: their document lists no error at all, and platform-api.md says to expect it. */
const EXPECTED_ANYWAY_OF: Partial<Record<DocumentName, readonly number[]>> = { platform: [...EXPECTED_ANYWAY, 404] };

function json(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function errorsOf(errors: readonly { instancePath?: string; message?: string }[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath === '' || e.instancePath === undefined ? '(body)' : e.instancePath} ${e.message ?? 'is invalid'}`).join('; ');
}

/** A vendor document, loaded and ready to validate against. */
/**
 * openapi-backend, checking the document itself against the OpenAPI 3.0 schema (its check
 * knows no other version). A 3.1 document (analytics) is not checked as a whole; its schemas
 * still validate requests and answers (Ajv reads 3.1's type arrays natively).
 */
class Backend extends OpenAPIBackend {
  constructor(
    private readonly checkDocument: boolean,
    options: ConstructorParameters<typeof OpenAPIBackend>[0],
  ) {
    super(options);
  }

  override validateDefinition(): Document {
    return this.checkDocument ? super.validateDefinition() : this.document;
  }
}

/** openapi-backend's Ajv (with the formats), and what it compiles. */
type Ajv = ReturnType<OpenAPIBackend['validator']['getAjv']>;
type ValidateFunction = ReturnType<Ajv['compile']>;

export class VendorDocument {
  /** Compiled validators of schemas outside the operations (the Error of an undocumented status, a generated answer's). */
  private readonly compiled = new WeakMap<object, ValidateFunction>();
  private ajv: Ajv | undefined;

  private constructor(
    readonly name: DocumentName,
    private readonly api: OpenAPIBackend,
  ) {}

  /** Loads `test/contract/vendor/<file>`: every operation without an `operationId` gets `<method> <path>`. */
  static async load(name: DocumentName): Promise<VendorDocument> {
    const definition = JSON.parse(readFileSync(join(VENDOR_DIR, DOCUMENTS[name]), 'utf8')) as Document;
    for (const [path, item] of Object.entries(definition.paths ?? {})) {
      for (const [method, operation] of Object.entries(item ?? {})) {
        if (typeof operation === 'object' && operation !== null && 'responses' in operation) (operation as { operationId?: string }).operationId ??= `${method} ${path}`;
      }
    }
    const server = definition.servers?.[0]?.url;
    const apiRoot = server === undefined ? '/' : new URL(server).pathname.replace(/\/$/, '') || '/';
    const api = new Backend(/^3\.0\./.test(String(definition.openapi)), {
      definition,
      apiRoot,
      // Any problem with the document, or with a schema Ajv compiles, is an error.
      strict: true,
      // Every problem of an answer, not only the first.
      ajvOpts: { allErrors: true },
      customizeAjv: (ajv) => {
        addFormats(ajv);
        // The analytics document's cursors and thread ids (Crockford base32, 26 characters).
        ajv.addFormat('ulid', /^[0-9A-HJKMNP-TV-Z]{26}$/i);
        return ajv;
      },
    });
    api.register({
      notFound: () => ({ findings: ['no operation of the document has this method and path'] }),
      methodNotAllowed: () => ({ findings: ['the document has this path, but not for this method'] }),
      unauthorizedHandler: () => ({ findings: ['the request does not meet the security requirement (Authorization: Bearer <key>)'] }),
      validationFail: (c: Context) => ({ operation: c.operation, findings: [`the request is not what the operation takes: ${errorsOf(c.validation.errors)}`] }),
      notImplemented: (c: Context) => ({ operation: c.operation, findings: [] }),
    });
    api.registerSecurityHandler('bearerAuth', (c: Context) => {
      const authorization = (c.request.headers as Record<string, unknown>).authorization;
      return typeof authorization === 'string' && /^Bearer \S+$/.test(authorization);
    });
    await api.init();
    return new VendorDocument(name, api);
  }

  /** Every operation of the document, dereferenced. */
  operations(): Operation[] {
    return this.api.getOperations();
  }

  /** The dereferenced operation for a method and a path template (`/v2/agent/{projectId}/job`), or undefined. */
  operation(method: string, template: string): Operation | undefined {
    return this.api.getOperations().find((o) => o.method === method.toLowerCase() && o.path === template);
  }

  /**
   * What is wrong with a request against the document: its method and path must be a documented
   * operation's, its Authorization header the documented scheme, its body (JSON) and parameters
   * what the operation takes; an operation without a request body gets none.
   */
  async checkRequest(request: WireRequest): Promise<{ operation: Operation | undefined; findings: Finding[] }> {
    const findings: Finding[] = [];
    let body: unknown;
    if (request.body !== '') {
      const parsed = json(request.body);
      if (!parsed.ok) findings.push('the request body is not JSON');
      else body = parsed.value;
      if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) findings.push(`the request body is sent as "${request.headers['content-type'] ?? '(no Content-Type)'}", not application/json`);
    }
    const result = (await this.api.handleRequest({ method: request.method, path: request.path, query: request.query, headers: request.headers, body })) as { operation?: Operation; findings: Finding[] };
    findings.push(...result.findings);
    if (result.operation !== undefined && result.operation.requestBody === undefined && request.body !== '') findings.push('the operation takes no request body, but one was sent');
    return { operation: result.operation, findings };
  }

  /**
   * What is wrong with an answer to `operation`: its status must be documented (or one of
   * EXPECTED_ANYWAY, with the document's `Error` as its body), its body JSON of the documented
   * media type, and valid against the documented schema (required fields, types, enums, formats).
   */
  checkReply(operation: Operation, reply: WireReply): Finding[] {
    const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, { schema?: unknown }> }>;
    const documented = responses[String(reply.status)] ?? responses.default;
    const findings: Finding[] = [];
    const parsed = json(reply.body);
    if (!parsed.ok) return [`the ${reply.status} answer is not JSON`];
    if (!/^application\/json\b/i.test(reply.headers['content-type'] ?? '')) findings.push(`the ${reply.status} answer is "${reply.headers['content-type'] ?? '(no Content-Type)'}", not application/json`);
    if (documented === undefined) {
      if (!(EXPECTED_ANYWAY_OF[this.name] ?? EXPECTED_ANYWAY).includes(reply.status)) return [...findings, `${reply.status} is not an answer the document lists (${Object.keys(responses).join(', ')}) nor one the field notes expect anyway`];
      const error = this.errorSchema();
      if (error === undefined) return findings;
      const problems = this.validate(error, parsed.value);
      return problems.length === 0 ? findings : [...findings, `the ${reply.status} answer is not the document's Error: ${problems.join('; ')}`];
    }
    if (documented.content !== undefined && documented.content['application/json'] === undefined) findings.push(`the ${reply.status} answer is documented as ${Object.keys(documented.content).join(', ')}, not JSON`);
    const result = this.api.validateResponse(parsed.value, operation, reply.status);
    if (!result.valid) findings.push(`the ${reply.status} answer is not what the document says: ${errorsOf(result.errors)}`);
    return findings;
  }

  /** The document's `Error` schema (dereferenced), when it has one. */
  errorSchema(): object | undefined {
    const schemas = (this.api.definition.components?.schemas ?? {}) as Record<string, object>;
    return schemas.Error;
  }

  /** Validates any value against a (dereferenced) schema of this document, with its formats. */
  validate(schema: object, value: unknown): Finding[] {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      this.ajv ??= this.api.validator.getAjv(ValidationContext.Response);
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    return validate(value) ? [] : [errorsOf(validate.errors)];
  }
}
