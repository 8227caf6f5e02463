// Lookup of linked accounts (end users), by name or by an env variable and its value: how a
// multi-tenant program chooses whom to set up.
import { z } from "zod";
import * as api from "../client/schemas";
import { ListArgs, lookup, maxItems, outputVersion } from "./common";

/** A linked account. */
export interface LinkedAccount {
  /** The platform's id (`_id`). */
  id: string;
  /** Your identifier of the account: what resources take as `linkedAccountId`. */
  accountId: string;
  /** Display name. */
  name?: string;
  /** The environment the account lives in. */
  environment?: string;
  /** User-defined fields. */
  udf: { keyName: string; keyValue: unknown }[];
  /** Creation time, ISO 8601. */
  createdAt?: string;
  /** Last update time, ISO 8601. */
  updatedAt?: string;
}

/** Arguments of getLinkedAccounts. */
export interface GetLinkedAccountsArgs extends ListArgs {
  /** Only accounts whose name contains this (the platform's `search`). */
  search?: string;
  /** Only accounts with a value of the env variable of this name... */
  envVariableName?: string;
  /** ...equal to this. Given together with `envVariableName`. */
  envVariableValue?: string;
}

const text = z.string().min(1, "must not be empty");
const schema = z
  .object({
    search: text.optional(),
    envVariableName: text.optional(),
    envVariableValue: z.string().optional(),
    maxItems,
  })
  .strict()
  .superRefine((args, ctx) => {
    if (args.envVariableValue !== undefined && args.envVariableName === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["envVariableName"],
        message: "is required when envVariableValue is given",
      });
    }
  });

function toLinkedAccount(a: api.LinkedAccount): LinkedAccount {
  return {
    id: a._id,
    accountId: a.account_id,
    name: a.name ?? undefined,
    environment: a.environment ?? undefined,
    udf: (a.udf ?? []).map((u) => ({ keyName: u.key_name, keyValue: u.key_value })),
    createdAt: a.createdAt ?? undefined,
    updatedAt: a.updatedAt ?? undefined,
  };
}

/** Lists linked accounts, every page, optionally filtered. Uses the API key (the platform refuses bearer tokens here). */
export const getLinkedAccounts: (args?: GetLinkedAccountsArgs) => Promise<LinkedAccount[]> = lookup(
  "getLinkedAccounts",
  schema,
  async (reader, a) => {
    const docs = await reader
      .listLinkedAccounts({
        search: a.search,
        env_variable_name: a.envVariableName,
        env_variable_value: a.envVariableValue,
      })
      .all(a.maxItems);
    return docs.map(toLinkedAccount);
  },
);

/** getLinkedAccounts, taking Inputs and returning an Output. */
export const getLinkedAccountsOutput = outputVersion(getLinkedAccounts);
