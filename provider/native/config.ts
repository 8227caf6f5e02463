// The provider's own settings, as the engine hands them over: CheckConfig, DiffConfig and
// Configure (docs/design/native.md, "Settings").
import { isDeepStrictEqual } from "node:util";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { SettingsError } from "../client/errors";
import type { Connection } from "../connection";
import { containsUnknown, UNKNOWN } from "../resources/inputs";
import { resolveSettings, type ConfigReader } from "../settings";
import { SETTINGS, type SettingSource } from "../settingNames";
import { PACKAGE } from "../typeTokens";
import { answer, checkFailure, receive, reveal, type Props } from "./values";

/** The settings that are secrets: always kept secret in the provider's state, however they were given. */
const SECRET_SETTINGS = (Object.entries(SETTINGS) as [string, SettingSource][])
  .filter(([, s]) => s.secret)
  .map(([name]) => name);

/** The provider's settings, by name (`baseUrl`), as the reader settings.ts reads (`integration-platform:baseUrl`). */
function readerOf(values: Props): ConfigReader {
  return {
    get: (key) => {
      const value = reveal(values[key.slice(PACKAGE.length + 1)]);
      if (value === undefined || value === null || value === UNKNOWN) return undefined;
      return typeof value === "string" ? value : JSON.stringify(value);
    },
  };
}

/**
 * Why the provider's settings cannot work, one failure per setting; a missing setting is not one
 * (the environment may supply it, and a preview may need none).
 */
function settingsFailures(news: Props): { property: string; reason: string }[] {
  const reader = readerOf(news);
  // Stand-ins for the two required settings, so that what remains to fail is a value given.
  const complete: ConfigReader = {
    get: (key) =>
      reader.get(key) ??
      (key === SETTINGS.baseUrl.config ? "http://localhost" : key === SETTINGS.apiKey.config ? "set" : undefined),
  };
  try {
    resolveSettings(complete, {});
    return [];
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    // The reason names the setting; a failure with a property would have the engine print its value.
    return [{ property: "", reason: error.message }];
  }
}

/** CheckConfig: refuses a bad value, never a missing one; the secret settings come back secret. */
export async function checkConfig(req: provproto.CheckRequest): Promise<provproto.CheckResponse> {
  const news = receive(req.getNews()).sent;
  const response = new provproto.CheckResponse();
  response.setInputs(answer(news, SECRET_SETTINGS));
  const failures = containsUnknown(news) ? [] : settingsFailures(news);
  response.setFailuresList(failures.map(checkFailure));
  return response;
}

/** DiffConfig: a changed setting is an update, never a replacement. */
export async function diffConfig(req: provproto.DiffRequest): Promise<provproto.DiffResponse> {
  const [olds, news] = [receive(req.getOlds()).plain, receive(req.getNews()).plain];
  const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((key) => key !== "version");
  const changed = keys.filter((key) => !isDeepStrictEqual(olds[key], news[key]));
  // A new address or credential reaches the same platform objects: the resources stay, none is replaced.
  const response = new provproto.DiffResponse();
  const { DIFF_SOME, DIFF_NONE } = provproto.DiffResponse.DiffChanges;
  response.setChanges(changed.length > 0 ? DIFF_SOME : DIFF_NONE);
  response.setDiffsList(changed);
  return response;
}

/** Configure: the settings become `connection`'s config reader, as the dynamic host's do. */
export async function configure(
  connection: Connection,
  req: provproto.ConfigureRequest,
): Promise<provproto.ConfigureResponse> {
  // Typed arguments where the engine sends them; else its variables, `integration-platform:config:<name>`.
  const settings: Props = req.hasArgs() ? receive(req.getArgs()).sent : {};
  for (const [key, value] of req.getVariablesMap().toObject()) {
    const name = key.replace(`${PACKAGE}:config:`, "").replace(`${PACKAGE}:`, "");
    if (!(name in settings)) settings[name] = value;
  }
  connection.useStackConfig(readerOf(settings));
  const response = new provproto.ConfigureResponse();
  response.setAcceptsecrets(true);
  response.setSupportspreview(false);
  response.setAcceptresources(false);
  response.setAcceptoutputs(false);
  return response;
}
