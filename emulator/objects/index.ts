// The emulator's platform objects, one file each: the state schema (model.ts), the store's
// operations (`store.<name>`, store.ts) and the server's routes (server.ts) are all built from this list.
// Its order is the state file's order of keys, which must not change: data files written before load.
import { applicationEvents } from "./applicationEvents";
import { applications } from "./applications";
import { audit } from "./audit";
import { configs } from "./configs";
import { envVariables } from "./envVariables";
import { linkedAccounts } from "./linkedAccounts";
import { session } from "./session";
import { workflows } from "./workflows";

/** Every platform object of the emulator; a new object is its file under objects/ and one line here. */
export const OBJECTS = [
  applications,
  linkedAccounts,
  configs,
  workflows,
  applicationEvents,
  envVariables,
  audit,
  session,
] as const;
