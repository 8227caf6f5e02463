// `import` reads its connection from the environment alone, never from a stack's config. The
// client's and the settings' messages, shared with the provider, name the stack config key first
// (`integration-platform:apiKey` (INTEGRATION_PLATFORM_API_KEY)); import's name the variable only.
import { ApiError, SettingsError } from "../../provider/client/errors";
import { SETTINGS } from "../../provider/settings";

/** Escapes `text` for use in a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` with every connection setting named by its environment variable, and `pulumi config set` hints as `export` lines. */
export function environmentTerms(text: string): string {
  let out = text;
  for (const { config, env, hint } of Object.values(SETTINGS)) {
    // The hint's last word is its placeholder value: `<key>`, `https://<your platform host>`, `true`.
    out = out.replaceAll(hint, `export ${env}=${hint.split(" ").pop()}`);
    const key = literal(config);
    const variable = literal(env);
    out = out
      .replace(new RegExp(`${key} \\(or the environment variable ${variable}\\)`, "g"), env)
      .replace(new RegExp(`\`${key}\` \\(${variable}\\)`, "g"), `\`${env}\``)
      .replace(new RegExp(`${key} \\(${variable}\\)`, "g"), env)
      .replace(new RegExp(`\`${key}\`(?!\\w)`, "g"), `\`${env}\``)
      .replace(new RegExp(`${key}(?!\\w)`, "g"), env);
  }
  return out;
}

/** The same error with its message in environment terms: an ApiError keeps its class and fields (withAdvice), a SettingsError its class. */
export function inEnvironmentTerms(error: unknown): unknown {
  if (error instanceof ApiError) return error.withAdvice(environmentTerms(error.message));
  if (error instanceof SettingsError) return new (error.constructor as new (message: string) => SettingsError)(environmentTerms(error.message));
  return error;
}
