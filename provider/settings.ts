// Connection settings. They are read at run time, in the dynamic provider's process, from the
// stack config that `configure()` hands over, with environment variables as the fallback. They
// are never captured into `__provider` (which would put the API key into state in plaintext,
// pulumi/pulumi#8265).
import { SettingsError } from "./client/errors";
import {
  SETTINGS,
  settingHint,
  settingName,
  type ConnectionSettings,
  type SettingSource,
  type SettingTerms,
} from "./settingNames";

export { SETTINGS, type ConnectionSettings, type SettingTerms } from "./settingNames";

/** Reads a stack config value; the dynamic provider's `ConfigureRequest.config` has this shape. */
export interface ConfigReader {
  get(key: string): string | undefined;
}

/** Defaults: a platform that never answers fails one call after about 44 s (4 × 10 s plus backoff). */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** See DEFAULT_TIMEOUT_MS. */
export const DEFAULT_MAX_RETRIES = 3;
/** The platform's documented limit (docs/design/contract.md#rate-limits): 20 requests per second, burst 5. */
export const DEFAULT_REQUESTS_PER_SECOND = 20;
/**
 * Two minutes of 429s for one call. A 429 means "wait": while another job shares the API key, a
 * call may need several turns, and giving up early would fail a run that would have finished.
 * Past two minutes the key is not shared but saturated, and the user should hear about it.
 */
export const DEFAULT_RATE_LIMIT_BUDGET_MS = 120_000;

function read(source: SettingSource, config: ConfigReader | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const value = config?.get(source.config) ?? env[source.env];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function numberSetting(
  terms: SettingTerms,
  source: SettingSource,
  raw: string | undefined,
  range: { fallback: number; min: number; max: number; whole: boolean },
): number {
  if (raw === undefined) return range.fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || (range.whole && !Number.isInteger(value)) || value < range.min || value > range.max) {
    const kind = range.whole ? "a whole number" : "a number";
    throw new SettingsError(
      `${settingName(source, terms)} must be ${kind} from ${range.min} to ${range.max}; got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

function booleanSetting(
  terms: SettingTerms,
  source: SettingSource,
  raw: string | undefined,
  fallback = false,
): boolean {
  const value = raw?.toLowerCase();
  if (value === undefined) return fallback;
  if (value === "false") return false;
  if (value === "true") return true;
  throw new SettingsError(`${settingName(source, terms)} must be true or false; got ${JSON.stringify(raw)}`);
}

/** Whether a URL's hostname is this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/**
 * Whether checks validate changed resources against the platform (default true). Read on its own,
 * so that a stack that turns validation off previews without any connection setting.
 */
export function validatesAtPreview(config?: ConfigReader, env: NodeJS.ProcessEnv = process.env): boolean {
  return booleanSetting("stack", SETTINGS.validateAtPreview, read(SETTINGS.validateAtPreview, config, env), true);
}

/** The numeric settings: each one's range and default. */
const NUMBERS = {
  timeoutMs: { fallback: DEFAULT_TIMEOUT_MS, min: 100, max: 600_000, whole: true },
  maxRetries: { fallback: DEFAULT_MAX_RETRIES, min: 0, max: 10, whole: true },
  requestsPerSecond: { fallback: DEFAULT_REQUESTS_PER_SECOND, min: 0, max: 1000, whole: false },
  rateLimitBudgetMs: { fallback: DEFAULT_RATE_LIMIT_BUDGET_MS, min: 0, max: 3_600_000, whole: true },
} as const;

/** Throws one SettingsError naming every missing connection setting: the base URL, and a credential. */
function requireConnection(terms: SettingTerms, found: { baseUrl?: string; apiKey?: string; token?: string }): void {
  const missing: SettingSource[] = [];
  if (!found.baseUrl) missing.push(SETTINGS.baseUrl);
  if (!found.apiKey && !found.token) missing.push(SETTINGS.apiKey);
  if (missing.length === 0) return;
  const lines = missing.map((s) =>
    terms === "stack"
      ? `  ${s.config} (or the environment variable ${s.env}): ${s.hint}`
      : `  ${s.env}: ${settingHint(s, terms)}`,
  );
  throw new SettingsError(`The integration platform connection is not configured. Set:\n${lines.join("\n")}`);
}

/** The base URL as a URL: absolute, http or https. */
function baseUrlOf(terms: SettingTerms, baseUrl: string): URL {
  const name = settingName(SETTINGS.baseUrl, terms, "key");
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new SettingsError(`${name} must be an absolute http(s) URL; got ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SettingsError(`${name} must use http or https; got ${JSON.stringify(url.protocol)}`);
  }
  return url;
}

/** Refuses plain http to another machine unless opted in: the API key would cross the network unencrypted. */
function refusePlainHttp(terms: SettingTerms, url: URL, allowPlainHttp: boolean): void {
  if (url.protocol !== "http:" || isLoopback(url.hostname) || allowPlainHttp) return;
  throw new SettingsError(
    `${settingName(SETTINGS.baseUrl, terms, "key")} uses http:// to ${url.hostname}, which is not this machine: ` +
      "the API key would cross the network unencrypted. " +
      `Use https://, or, on a network you trust, set ${settingName(SETTINGS.allowPlainHttp, terms)} to true`,
  );
}

/**
 * Resolves the settings from stack config, then the environment; throws one SettingsError naming
 * every missing key. `terms`: how this and every later message names a setting (`environment`
 * for a reader of the environment alone, as `import` is).
 */
export function resolveSettings(
  config?: ConfigReader,
  env: NodeJS.ProcessEnv = process.env,
  terms: SettingTerms = "stack",
): ConnectionSettings {
  const raw = (source: SettingSource) => read(source, config, env);
  const [baseUrl, apiKey, token] = [raw(SETTINGS.baseUrl), raw(SETTINGS.apiKey), raw(SETTINGS.token)];
  requireConnection(terms, { baseUrl, apiKey, token });
  const url = baseUrlOf(terms, baseUrl!);
  const createWithoutRead = booleanSetting(terms, SETTINGS.createWithoutRead, raw(SETTINGS.createWithoutRead));
  const allowPlainHttp = booleanSetting(terms, SETTINGS.allowPlainHttp, raw(SETTINGS.allowPlainHttp));
  refusePlainHttp(terms, url, allowPlainHttp);
  const number = (key: keyof typeof NUMBERS) => numberSetting(terms, SETTINGS[key], raw(SETTINGS[key]), NUMBERS[key]);
  return {
    // The API lives under /api/v2/public; accept a base URL given with or without it.
    baseUrl: url
      .toString()
      .replace(/\/+$/, "")
      .replace(/\/api\/v2\/public$/, ""),
    apiKey,
    token,
    timeoutMs: number("timeoutMs"),
    maxRetries: number("maxRetries"),
    requestsPerSecond: number("requestsPerSecond"),
    rateLimitBudgetMs: number("rateLimitBudgetMs"),
    createWithoutRead,
    allowPlainHttp,
    validateAtPreview: validatesAtPreview(config, env),
    terms,
  };
}
