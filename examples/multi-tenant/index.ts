// Multi-tenant: choose linked accounts by reading the platform, then stamp one setup per account.
// Each setup is named after its account, so a new matching account only adds its own resources.
// Sharded by stack config: with `integration-platform:shards` S set, the stack named `<name>-i`
// sets up only the accounts of shard i of S (docs/guides/scaling.md); without
// it, every matching account.
import * as pulumi from "@pulumi/pulumi";
import * as platform from "pulumi-integration-platform";

const config = new pulumi.Config();
// Whom to set up: accounts whose name contains `search`, or else (the default) accounts whose
// ACCOUNT_TIER env variable is `tier`.
const search = config.get("search");
const tier = config.get("tier") ?? "enterprise";

export = async () => {
  const matching = await platform.getLinkedAccounts(
    search ? { search } : { envVariableName: "ACCOUNT_TIER", envVariableValue: tier },
  );
  const where = platform.stackShard();
  const accounts = platform.inThisShard(matching, (account) => account.accountId, where);

  for (const account of accounts) {
    new platform.LinkedAccountSetup(`${account.accountId}-hubspot`, {
      linkedAccountId: account.accountId,
      slug: "hubspot",
      fields: [{ fieldId: "hs_pipeline", name: `${account.name ?? account.accountId} pipeline` }],
      workflows: { wf_hs_deal_alerts: true },
      envValues: [{ definitionId: "64f0000000000000000000d6", value: config.getSecret("quota") ?? "500" }], // ACCOUNT_QUOTA
    });
  }

  return { accounts: accounts.map((account) => account.accountId), shard: `${where.shard} of ${where.shards}` };
};
