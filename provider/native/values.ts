// Property values between the engine and the definitions, the one place secrets are unmarked and
// marked: a request's Struct is received as sent (markers kept, to learn what the user made
// secret) and revealed; a response's Struct is answered with the secrets marked again.
import type * as pulumi from "@pulumi/pulumi";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";

/** A properties object, as plain values. */
export type Props = Record<string, unknown>;

/** The key and value that mark a secret in the engine's property values. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** True for a value the engine marked secret. */
function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/** The value with every secret marker removed, at any depth. */
export function reveal(value: unknown): unknown {
  if (isSecret(value)) return reveal(value.value);
  if (Array.isArray(value)) return value.map(reveal);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)]));
  return value;
}

/** Marks a value secret for the engine. */
function secret(value: unknown): unknown {
  return value === undefined || isSecret(value) ? value : { [SIG_KEY]: SECRET_SIG, value };
}

/** The properties with `keys` marked secret; `undefined`s dropped (a Struct cannot hold them). */
function conceal(props: Props, keys: Iterable<string>): Props {
  const out: Props = Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));
  for (const key of keys) if (key in out) out[key] = secret(out[key]);
  return out;
}

/** A request's properties: as the engine sent them, and with every secret revealed. */
export interface Received {
  /** As sent: a secret is still marked, so its key can be kept secret on the way out. */
  readonly sent: Props;
  /** Plain values, as the definitions take them. */
  readonly plain: Props;
}

/** A request's Struct, without the dynamic resources' `__provider` (a stack moved from them keeps it in state). */
export function receive(struct: structproto.Struct | undefined): Received {
  const sent = (struct?.toJavaScript() ?? {}) as Props;
  delete sent.__provider;
  return { sent, plain: reveal(sent) as Props };
}

/** A response's Struct: `props` with `secrets` marked, and every top-level key that arrived secret in `received`. */
export function answer(props: Props, secrets: Iterable<string>, ...received: Received[]): structproto.Struct {
  const keys = [...secrets, ...received.flatMap((r) => Object.keys(r.sent).filter((key) => isSecret(r.sent[key])))];
  return structproto.Struct.fromJavaScript(conceal(props, keys) as Record<string, structproto.JavaScriptValue>);
}

/** A check failure, as the engine takes it. */
export function checkFailure(failure: pulumi.dynamic.CheckFailure): provproto.CheckFailure {
  const f = new provproto.CheckFailure();
  f.setProperty(failure.property);
  f.setReason(failure.reason);
  return f;
}
