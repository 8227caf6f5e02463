// Where the platform's public operations live (docs/design/contract.md#versioning): the version
// segment is part of every path, so the emulator serves and a client calls the same prefix.

/** Prefix of every public operation. */
export const API_PREFIX = "/api/v2/public";
