// Linked accounts (docs/design/contract.md#linked-accounts): a customer's end users, whose configs
// and env values the other objects hold. Their shape and their list.
import { z } from "zod";
import type { PlatformReader } from "./http";
import { Page, type PageList, type PageQuery } from "./pagination";

/** A linked account (docs/design/contract.md#linked-accounts). */
export const LinkedAccount = z.looseObject({
  _id: z.string(),
  account_id: z.string(),
  name: z.string().nullish(),
  environment: z.string().nullish(),
  udf: z.array(z.looseObject({ key_name: z.string(), key_value: z.unknown() })).nullish(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
});
/** A linked account. */
export type LinkedAccount = z.infer<typeof LinkedAccount>;

/** A page of linked accounts. */
export const LinkedAccountPage = Page(LinkedAccount);

/** `GET /linked-account` (org-admin: API key only). */
export function listLinkedAccounts(
  reader: PlatformReader,
  query: PageQuery & { search?: string; env_variable_name?: string; env_variable_value?: string } = {},
): PageList<LinkedAccount> {
  return reader.list({ path: "/linked-account", auth: "apiKey", response: LinkedAccountPage }, query);
}
