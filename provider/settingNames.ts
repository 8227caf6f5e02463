// The connection settings, and how messages name them, in the words of whoever read them: the
// provider reads stack config with the environment as fallback, so its messages name both;
// `import` reads the environment alone, so its messages name the variable and an `export` line.
// It imports nothing: the errors that name a setting and the settings' reader both build on it.

/** Where and how to reach the platform: the settings, resolved (settings.ts). */
export interface ConnectionSettings {
  /** The platform's base address, without `/api/v2/public`. */
  baseUrl: string;
  /** The `x-api-key` value. */
  apiKey?: string;
  /** An optional bearer token, used by the operations that accept one. */
  token?: string;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs: number;
  /** Retries after the first attempt, for 5xx, timeouts and connection errors (429s have their own budget). */
  maxRetries: number;
  /** Requests per second this process sends at most; 0 turns pacing off. */
  requestsPerSecond: number;
  /** How long one call may keep waiting out 429 answers before it fails, in milliseconds. */
  rateLimitBudgetMs: number;
  /**
   * Create a resource that declares `restoreOnDelete` with one write, without first reading what
   * the platform holds.
   */
  createWithoutRead: boolean;
  /** Send the credentials over plain http to a host other than this machine. */
  allowPlainHttp: boolean;
  /** Check a preview's changes against the platform: configs, fields and workflows exist, the credentials work. */
  validateAtPreview: boolean;
  /** Where they were read from, which decides how messages name them (settingName); absent, `stack`. */
  terms?: SettingTerms;
}

/** One setting: its stack config key, its environment variable, and the command that sets it. */
export interface SettingSource {
  /** What the setting does, as the native schema, the SDKs and the docs say it. */
  description: string;
  /** Its type in the native schema. */
  type: "string" | "integer" | "number" | "boolean";
  /** A secret: kept encrypted in state and never put in a message. */
  secret?: boolean;
  config: string;
  env: string;
  hint: string;
}

/** Every setting the provider reads, for lookups and for documentation tests. */
export const SETTINGS = {
  baseUrl: {
    description:
      "The platform's base address, e.g. `https://api.example.com`, with or without `/api/v2/public`. Plain " +
      "`http://` is refused unless the host is this machine or `allowPlainHttp` is true.",
    type: "string",
    config: "integration-platform:baseUrl",
    env: "INTEGRATION_PLATFORM_BASE_URL",
    hint: "pulumi config set integration-platform:baseUrl https://<your platform host>",
  },
  apiKey: {
    description:
      "The API key, sent as `x-api-key` to the platform's host and nowhere else. Required unless `token` is set. A " +
      "secret: set it with `pulumi config set --secret`.",
    type: "string",
    secret: true,
    config: "integration-platform:apiKey",
    env: "INTEGRATION_PLATFORM_API_KEY",
    hint: "pulumi config set --secret integration-platform:apiKey <key>",
  },
  token: {
    description: "An optional bearer token, used by the operations that accept one. A secret.",
    type: "string",
    secret: true,
    config: "integration-platform:token",
    env: "INTEGRATION_PLATFORM_TOKEN",
    hint: "pulumi config set --secret integration-platform:token <token>",
  },
  timeoutMs: {
    description: "Per-attempt timeout in milliseconds, from 100 to 600000 (default 10000).",
    type: "integer",
    config: "integration-platform:timeoutMs",
    env: "INTEGRATION_PLATFORM_TIMEOUT_MS",
    hint: "pulumi config set integration-platform:timeoutMs 10000",
  },
  maxRetries: {
    description:
      "Retries after the first attempt for 5xx answers, 408, connection resets and timeouts, from 0 to 10 (default " +
      "3). 429s have their own budget, `rateLimitBudgetMs`.",
    type: "integer",
    config: "integration-platform:maxRetries",
    env: "INTEGRATION_PLATFORM_MAX_RETRIES",
    hint: "pulumi config set integration-platform:maxRetries 3",
  },
  requestsPerSecond: {
    description:
      "Requests per second this process sends at most, from 0 to 1000 (default 20, the platform's documented " +
      "limit); 0 turns pacing off.",
    type: "number",
    config: "integration-platform:requestsPerSecond",
    env: "INTEGRATION_PLATFORM_REQUESTS_PER_SECOND",
    hint: "pulumi config set integration-platform:requestsPerSecond 20",
  },
  rateLimitBudgetMs: {
    description:
      "How long one call may keep waiting out 429 answers before it fails, in milliseconds, from 0 to 3600000 " +
      "(default 120000).",
    type: "integer",
    config: "integration-platform:rateLimitBudgetMs",
    env: "INTEGRATION_PLATFORM_RATE_LIMIT_BUDGET_MS",
    hint: "pulumi config set integration-platform:rateLimitBudgetMs 300000",
  },
  createWithoutRead: {
    description:
      "Create a resource that declares `restoreOnDelete` with one write, without first reading what the platform " +
      "holds (default false).",
    type: "boolean",
    config: "integration-platform:createWithoutRead",
    env: "INTEGRATION_PLATFORM_CREATE_WITHOUT_READ",
    hint: "pulumi config set integration-platform:createWithoutRead true",
  },
  allowPlainHttp: {
    description: "Send the credentials over plain http to a host other than this machine (default false).",
    type: "boolean",
    config: "integration-platform:allowPlainHttp",
    env: "INTEGRATION_PLATFORM_ALLOW_PLAIN_HTTP",
    hint: "pulumi config set integration-platform:allowPlainHttp true",
  },
  validateAtPreview: {
    description:
      "Check what a preview would change against the platform: configs, fields and workflows exist, the " +
      "credentials work (default true).",
    type: "boolean",
    config: "integration-platform:validateAtPreview",
    env: "INTEGRATION_PLATFORM_VALIDATE_AT_PREVIEW",
    hint: "pulumi config set integration-platform:validateAtPreview false",
  },
} satisfies Record<Exclude<keyof ConnectionSettings, "terms">, SettingSource>;

/** Whose words a message names a setting in: the provider's (`stack`) or `import`'s (`environment`). */
export type SettingTerms = "stack" | "environment";

/**
 * A setting as a message names it. `key`: the stack config key alone, or the variable alone;
 * `both`: the key, then the variable in parentheses; `code`: as `both`, the name in backticks.
 */
export function settingName(
  source: SettingSource,
  terms: SettingTerms,
  style: "key" | "both" | "code" = "both",
): string {
  if (terms === "environment") return style === "code" ? `\`${source.env}\`` : source.env;
  if (style === "key") return source.config;
  return style === "code" ? `\`${source.config}\` (${source.env})` : `${source.config} (${source.env})`;
}

/** The command that sets a setting: `pulumi config set …`, or `export VARIABLE=…` with the same placeholder. */
export function settingHint(source: SettingSource, terms: SettingTerms): string {
  // The hint's value is what follows the key: `https://<your platform host>`, `<key>`, `true`.
  const value = source.hint.slice(source.hint.indexOf(source.config) + source.config.length).trim();
  return terms === "environment" ? `export ${source.env}=${value}` : source.hint;
}
