// Lookup of linked accounts (end users), by name or by an env variable and its value: how a
// multi-tenant program chooses whom to set up.
import { documented } from "../documented";
import { z } from "zod";
import * as api from "../client/linkedAccounts";
import { objectType } from "../resources/schemaTypes";
import { listArgs } from "./common";
import { ArgsOf, defineLookup, type OutputTwin } from "./definition";

/** A user-defined field of a linked account. */
const UserDefinedFieldSchema = objectType(
  "UserDefinedField",
  z.object(
    documented("UserDefinedField", {
      /** The field's name. */
      keyName: z.string(),
      /** The field's value. */
      keyValue: z.unknown(),
    }),
  ),
);

/** A linked account. */
export const LinkedAccountSchema = objectType(
  "LinkedAccount",
  z.object(
    documented("LinkedAccount", {
      /** The platform's id (`_id`). */
      id: z.string(),
      /** Your identifier of the account: what resources take as `linkedAccountId`. */
      accountId: z.string(),
      /** Display name. */
      name: z.string().optional(),
      /** The environment the account lives in. */
      environment: z.string().optional(),
      /** User-defined fields. */
      udf: z.array(UserDefinedFieldSchema),
      /** Creation time, ISO 8601. */
      createdAt: z.string().optional(),
      /** Last update time, ISO 8601. */
      updatedAt: z.string().optional(),
    }),
  ),
);

/** A linked account. */
export type LinkedAccount = z.output<typeof LinkedAccountSchema>;

const text = z.string().min(1, "must not be empty");

/** getLinkedAccounts, defined once (see definition.ts). */
export const LinkedAccountsLookup = defineLookup({
  name: "getLinkedAccounts",
  description:
    "Lists linked accounts, every page, optionally filtered. " +
    "Uses the API key (the platform refuses bearer tokens here).",
  args: documented("getLinkedAccounts", {
    /** Only accounts whose name contains this (the platform's `search`). */
    search: text.optional(),
    /** Only accounts with a value of the env variable of this name... */
    envVariableName: text.optional(),
    /** ...equal to this. Given together with `envVariableName`. */
    envVariableValue: z.string().optional(),
    ...listArgs,
  }),
  refine: (args, ctx) => {
    if (args.envVariableValue !== undefined && args.envVariableName === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["envVariableName"],
        message: "is required when envVariableValue is given",
      });
    }
  },
  result: z.array(LinkedAccountSchema),
  listedAs: "linkedAccounts",
  run: async (reader, a) => {
    const docs = await api
      .listLinkedAccounts(reader, {
        search: a.search,
        env_variable_name: a.envVariableName,
        env_variable_value: a.envVariableValue,
      })
      .all(a.maxItems);
    return docs.map(toLinkedAccount);
  },
});

/** Arguments of getLinkedAccounts. */
export type GetLinkedAccountsArgs = ArgsOf<typeof LinkedAccountsLookup.args>;

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

/**
 * Lists linked accounts, every page, optionally filtered. Uses the API key (the platform refuses bearer tokens
 * here).
 */
export const getLinkedAccounts: (args?: GetLinkedAccountsArgs) => Promise<LinkedAccount[]> =
  LinkedAccountsLookup.inProgram;

/** getLinkedAccounts, taking Inputs and returning an Output. */
export const getLinkedAccountsOutput: OutputTwin<GetLinkedAccountsArgs, LinkedAccount[]> =
  LinkedAccountsLookup.output(getLinkedAccounts);
