// The two type families one resource type is known by: the dynamic resources' tokens, frozen in
// every TypeScript stack since 0.1.0, and the native provider's, which every language uses. The
// change summary, the drift report and `shards` read both (docs/design/native.md). A leaf: the
// forwarders' module (dynamic/program.ts) is serialized into state, so nothing leans on it.

/** The package's name in the native schema: its tokens, its config namespace, its plugin's name. */
export const PACKAGE = "integration-platform";

/** The dynamic resources' module token, so that types read `pulumi-nodejs:dynamic/integration-platform:<Type>`. */
export const DYNAMIC_MODULE = "integration-platform";

/** How a dynamic resource's type token starts, as state and `pulumi preview --json` show it. */
export const DYNAMIC_TYPE_PREFIX = `pulumi-nodejs:dynamic/${DYNAMIC_MODULE}:`;

/** How a native resource's type token starts: `integration-platform:index:<Type>`. */
export const NATIVE_TYPE_PREFIX = `${PACKAGE}:index:`;

/** The native token of a type or function, e.g. `integration-platform:index:ConfigField`. */
export function nativeToken(name: string): string {
  return `${NATIVE_TYPE_PREFIX}${name}`;
}

/**
 * The type's name (`ConfigField`) when `token` is one of this package's resource tokens, of
 * either family; undefined otherwise (another package's resource, a provider, a component).
 */
export function typeNameOf(token: string): string | undefined {
  for (const prefix of [DYNAMIC_TYPE_PREFIX, NATIVE_TYPE_PREFIX]) {
    if (token.startsWith(prefix)) return token.slice(prefix.length);
  }
  return undefined;
}
