// Linked accounts (docs/design/contract.md#linked-accounts): seeded by the fixture or added by tests;
// the public API lists them, by part of the name or by a linked_account-scope env value.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest, notFound } from "../errors";
import type { OperationDocs } from "../operationDoc";
import { pageSchema, paginate, paginationQuerySchema } from "../pagination";
import {
  checkUnique,
  defineObject,
  idSchema,
  newObjectId,
  now,
  timestampSchema,
  type Issue,
  type OrgState,
  type StoreCore,
} from "../platformObject";
import { accepts } from "../requests";
import { parseInput } from "../validation";

/** An end user's linked account; `account_id` is what clients send as `linked_account_id`. */
export const linkedAccountSchema = z.object({
  _id: idSchema,
  account_id: idSchema,
  name: z.string(),
  environment: z.string().default("test"),
  udf: z.array(z.object({ key_name: z.string(), key_value: z.string() })).default([]),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

/** A linked account. */
export type LinkedAccount = z.output<typeof linkedAccountSchema>;

/** The linked accounts' part of the state. */
export interface LinkedAccountsState {
  linkedAccounts: LinkedAccount[];
}

/** Filters of the linked accounts' list: part of the name, or a linked_account-scope env value. */
export interface LinkedAccountFilter {
  search?: string;
  envVariable?: { name: string; value: string };
}

/**
 * What the linked accounts take of the store. The env variables are named by the one operation
 * used, not imported: env values point at linked accounts, so objects/envVariables.ts imports this file.
 */
export type LinkedAccountsStore = StoreCore<OrgState & LinkedAccountsState> & {
  envVariables: { accountsWithValue(name: string, value: string): ReadonlySet<string> };
};

/** The linked accounts' operations: `store.linkedAccounts`. */
export class LinkedAccounts {
  constructor(private readonly store: LinkedAccountsStore) {}

  /** The linked account whose `account_id` (what clients send as linked_account_id) is given. */
  find(accountId: string): LinkedAccount | undefined {
    return this.store.state.linkedAccounts.find((a) => a.account_id === accountId);
  }

  /** The linked account with this account_id, or 404. */
  require(accountId: string): LinkedAccount {
    const account = this.find(accountId);
    if (!account) throw notFound(`Linked account ${accountId} not found`);
    return account;
  }

  /** Adds a linked account (without configs); use `store.configs.upsert` to give it some. */
  add(account: { account_id: string; name: string; udf?: LinkedAccount["udf"] }): LinkedAccount {
    const timestamp = now();
    const linked: LinkedAccount = {
      _id: newObjectId(),
      account_id: account.account_id,
      name: account.name,
      environment: this.store.state.org.environment,
      udf: account.udf ?? [],
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    this.store.state.linkedAccounts.push(linked);
    return linked;
  }

  /** The linked accounts that pass every filter given. */
  list(filter: LinkedAccountFilter): LinkedAccount[] {
    const search = filter.search?.toLowerCase();
    const { envVariable } = filter;
    const withValue = envVariable && this.store.envVariables.accountsWithValue(envVariable.name, envVariable.value);
    return this.store.state.linkedAccounts.filter(
      (a) =>
        (search === undefined || a.name.toLowerCase().includes(search)) &&
        (withValue === undefined || withValue.has(a.account_id)),
    );
  }
}

/** A linked account as the list answers it: the record as stored. */
export const linkedAccountViewSchema = linkedAccountSchema;

/** A linked account list item. */
export function linkedAccountView(account: LinkedAccount): z.output<typeof linkedAccountViewSchema> {
  const { _id, account_id, name, environment, udf, createdAt, updatedAt } = account;
  return { _id, account_id, name, environment, udf, createdAt, updatedAt };
}

/** The list's query: a page, part of the name, or a linked_account-scope env value (name and value together). */
export const linkedAccountsQuerySchema = paginationQuerySchema.extend({
  search: z.string().optional().meta({ description: "Part of the name, in any case" }),
  env_variable_name: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "A linked_account-scope env variable's name; with env_variable_value" }),
  env_variable_value: z.string().optional().meta({ description: "The value it must have; with env_variable_name" }),
});

const LIST_URL = `${API_PREFIX}/linked-account`;

/** Get Linked Accounts, as the OpenAPI document describes it. */
const linkedAccountDocs: OperationDocs = {
  [LIST_URL]: {
    get: {
      operationId: "listLinkedAccounts",
      summary: "Lists the linked accounts, a page at a time",
      description: "An org-admin operation: bearer tokens are refused. An encrypted env variable matches nothing.",
      caller: "api_key",
      params: { query: linkedAccountsQuerySchema },
      answer: { schema: pageSchema(linkedAccountViewSchema), description: "A page of linked accounts" },
      errors: { 400: "A bad page or limit, or only one of env_variable_name and env_variable_value" },
    },
  },
};

/** Get Linked Accounts: an org-admin operation, so bearer tokens are refused. */
function registerLinkedAccountRoutes(app: FastifyInstance, { linkedAccounts }: { linkedAccounts: LinkedAccounts }) {
  app.get(LIST_URL, accepts("api_key"), async (request) => {
    const query = parseInput(linkedAccountsQuerySchema, request.query, "query");
    if ((query.env_variable_name === undefined) !== (query.env_variable_value === undefined)) {
      throw badRequest("env_variable_name and env_variable_value must be given together");
    }
    const envVariable =
      query.env_variable_name === undefined
        ? undefined
        : { name: query.env_variable_name, value: query.env_variable_value! };
    return paginate(linkedAccounts.list({ search: query.search, envVariable }), query, linkedAccountView);
  });
}

/** Linked accounts: their records, their list operation. */
export const linkedAccounts = defineObject({
  name: "linkedAccounts",
  state: { linkedAccounts: z.array(linkedAccountSchema).default([]) },
  checkReferences: (state: LinkedAccountsState, issue: Issue) =>
    checkUnique(issue, state.linkedAccounts, (a) => a.account_id, "linkedAccounts", "account_id"),
  operations: (store: LinkedAccountsStore) => new LinkedAccounts(store),
  routes: registerLinkedAccountRoutes,
  docs: linkedAccountDocs,
});
