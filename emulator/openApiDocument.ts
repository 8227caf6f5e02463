// The emulator's API described (docs/emulator.md, "Its API described"): an OpenAPI 3.1 document of
// the platform's public operations and of the control plane, generated with zod-openapi from what
// each route describes of itself (its `docs`: the schemas it parses its request with and its answer
// fits), plus what the gate in front of every route answers. Served at /_emulator/openapi.json, and
// written to emulator/openapi.json by scripts/gen-openapi.ts for the package and the release.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  createDocument,
  createSchema,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import { CONTROL_PREFIX } from "./control";
import { CONTROL_DOCS } from "./controlDocs";
import { errorBodySchema } from "./errors";
import { OBJECTS } from "./objects";
import type { HttpMethod, OperationDoc, OperationDocs } from "./operationDoc";
import { packageVersion } from "./stateFile";

/** Where the control plane serves the document. */
export const OPENAPI_URL = `${CONTROL_PREFIX}/openapi.json`;

/** The document as served, read back: what its own operation answers. */
const documentSchema = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** The document's own operation. */
const documentDocs: OperationDocs = {
  [OPENAPI_URL]: {
    get: {
      operationId: "getOpenApiDocument",
      summary: "This document: the public API and the control plane, in OpenAPI 3.1",
      caller: "control plane",
      answer: { schema: documentSchema, description: "The document" },
    },
  },
};

/** Every operation the document describes, by fastify URL and method, with the tag it is listed under. */
export function describedOperations(): { url: string; method: HttpMethod; doc: OperationDoc; tag: string }[] {
  const groups: [string, OperationDocs][] = [
    ...OBJECTS.flatMap((object): [string, OperationDocs][] => (object.docs ? [[object.name, object.docs]] : [])),
    [CONTROL_TAG, { ...CONTROL_DOCS, ...documentDocs }],
  ];
  return groups.flatMap(([tag, docs]) =>
    Object.entries(docs).flatMap(([url, byMethod]) =>
      Object.entries(byMethod).map(([method, doc]) => ({ url, method: method as HttpMethod, doc: doc!, tag })),
    ),
  );
}

const CONTROL_TAG = "control plane";

/** A fastify URL in the document's spelling: `/env/values/:value_id` is `/env/values/{value_id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}

/** The document, as zod-openapi makes it. */
export type OpenApiDocument = ReturnType<typeof createDocument>;

const documents = new Map<string, OpenApiDocument>();

/** The document, for the emulator of this `version` (info.version); made once per version. */
export function openApiDocument(version: string = packageVersion()): OpenApiDocument {
  let document = documents.get(version);
  if (!document) {
    document = buildDocument(version);
    documents.set(version, document);
  }
  return document;
}

function buildDocument(version: string): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  const schemas: Record<string, oas31.SchemaObject> = {};
  const operations = describedOperations();
  for (const { url, method, doc, tag } of operations) {
    const path = openApiPath(url);
    if (paths[path]?.[method]) throw new Error(`${method.toUpperCase()} ${url} is described twice`);
    paths[path] = { ...paths[path], [method]: operationObject(method, doc, tag, schemas) };
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Integration platform emulator",
      version,
      description: DESCRIPTION,
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    // Relative: the emulator that serves the document, whatever its port.
    servers: [{ url: "/" }],
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
    components: { securitySchemes: SECURITY_SCHEMES, schemas },
    paths,
  });
}

const DESCRIPTION = [
  "The integration platform's public API as pulumi-integration-platform-emulator serves it, under /api/v2/public,",
  "and the emulator's control plane for tests, under /_emulator (loopback hosts only, no credentials).",
  "Generated from the zod schemas the emulator validates requests with and its answers fit.",
  "Every error answer carries the platform's error body. Besides the statuses listed, a fault rule",
  "(POST /_emulator/faults) may answer any API request with a status of its choosing from 400 to 599,",
  "in the same body, reset its connection, or delay it.",
].join(" ");

const SECURITY_SCHEMES = {
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "The organisation's API key; org-admin operations accept only it. Looked at first when sent.",
  },
  bearerToken: {
    type: "http",
    scheme: "bearer",
    description: "A personal access token, `Authorization: Bearer <token>`; org-admin operations refuse it.",
  },
} as const;

/** Which credentials an operation's `security` lists: either for most, the API key alone for org-admin ones. */
function securityOf(doc: OperationDoc): oas31.SecurityRequirementObject[] {
  if (doc.caller === "api_key") return [{ apiKey: [] }];
  if (doc.caller === "api_key_or_bearer") return [{ apiKey: [] }, { bearerToken: [] }];
  return [];
}

function operationObject(
  method: HttpMethod,
  doc: OperationDoc,
  tag: string,
  schemas: Record<string, oas31.SchemaObject>,
): ZodOpenApiOperationObject {
  const { operationId, summary, description, params, body } = doc;
  return {
    operationId,
    summary,
    ...(description && { description }),
    tags: [tag],
    security: securityOf(doc),
    ...(params && { requestParams: params }),
    ...(body && { requestBody: { required: true, content: { "application/json": { schema: body } } } }),
    responses: { ...answerOf(doc, schemas), ...errorAnswers(method, doc) },
  };
}

function answerOf(doc: OperationDoc, schemas: Record<string, oas31.SchemaObject>): ZodOpenApiResponsesObject {
  const { answer } = doc;
  if (!answer) return {};
  let schema: z.ZodType | oas31.ReferenceObject = answer.schema;
  if (answer.asFormat) {
    // The answer always fits what the schema parses: the state file read back is the state.
    const rendered = createSchema(answer.schema, { io: "input" });
    Object.assign(schemas, rendered.components, { [answer.asFormat]: rendered.schema });
    schema = { $ref: `#/components/schemas/${answer.asFormat}` };
  }
  return {
    [String(answer.status ?? 200)]: { description: answer.description, content: { "application/json": { schema } } },
  };
}

/** `Retry-After`, in whole seconds: sent by the rate limit with --retry-after, and by a fault rule that sets one. */
const RETRY_AFTER = z.object({
  "retry-after": z
    .string()
    .regex(/^\d+$/)
    .optional()
    .meta({ description: "Whole seconds to wait before trying again" }),
});

function errorAnswer(status: number | "5XX", description: string, headers?: typeof RETRY_AFTER) {
  return {
    description,
    ...(headers && { headers }),
    content: { "application/json": { schema: errorBodySchema(status) } },
  };
}

/** The route's own errors and the gate's, which every operation of its kind may answer. */
function errorAnswers(method: HttpMethod, doc: OperationDoc): ZodOpenApiResponsesObject {
  const own = doc.errors ?? {};
  const answers: ZodOpenApiResponsesObject = {};
  // A body that is not JSON, too large or too deep; a path that is no URL or a parameter over 100
  // characters: answered before the route runs. GET bodies are never read.
  const readsInput = method !== "get" || doc.params !== undefined;
  if (readsInput || own[400]) {
    const gate = "A body that is not JSON, too large or too deep, or a path no route can take";
    answers["400"] = errorAnswer(400, own[400] ? `${own[400]}. ${gate}` : gate);
  }
  for (const status of [404, 409, 410] as const) {
    if (own[status]) answers[String(status) as "404"] = errorAnswer(status, own[status]);
  }
  if (doc.caller === "control plane") {
    answers["403"] = errorAnswer(
      403,
      "Not addressed to this machine (Host localhost, 127.0.0.1 or [::1]), or a change sent by another site's page",
    );
    answers["5XX"] = errorAnswer("5XX", "An internal error");
    return answers;
  }
  if (doc.caller !== "none") {
    answers["401"] = errorAnswer(
      401,
      doc.caller === "api_key"
        ? "No valid credential, or a bearer token (this operation is org-admin: the API key only)"
        : "No valid credential: the API key in x-api-key, or a bearer token",
    );
  }
  answers["403"] = errorAnswer(
    403,
    'Over the rate limit, when it answers 403 "Rate Limit Hit" (--rate-limit-status)',
    RETRY_AFTER,
  );
  answers["429"] = errorAnswer(
    429,
    "Over the rate limit (20 requests per second with a burst of 5, per credential), or a fault rule's 429",
    RETRY_AFTER,
  );
  answers["5XX"] = errorAnswer("5XX", "An internal error, or a fault rule's status", RETRY_AFTER);
  return answers;
}

/** The document as the package's file emulator/openapi.json and the release's emulator-openapi.json hold it. */
export function openApiText(version: string = packageVersion()): string {
  return `${JSON.stringify(openApiDocument(version), null, 2)}\n`;
}

/**
 * Routes of the control plane the document leaves out: the dashboard's page, its assets and the
 * views it polls (docs/emulator.md, "Dashboard"), which are that page's own and change with it.
 */
export const UNDESCRIBED_ROUTES: readonly RegExp[] = [
  new RegExp(`^${CONTROL_PREFIX}/?$`),
  new RegExp(`^${CONTROL_PREFIX}/assets/`),
  new RegExp(`^${CONTROL_PREFIX}/dashboard/`),
];

/** Serves the document on the control plane. */
export function registerOpenApiDocument(app: FastifyInstance): void {
  app.get(OPENAPI_URL, async () => openApiDocument());
}
