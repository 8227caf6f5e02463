// What several lookups share: the bound every listing takes, and the checks of an id and a name.
import { documented } from "../documented";
import { z } from "zod";
import type { ArgsOf } from "./definition";

/** The arguments every lookup that lists takes: spread into its `args`. */
export const listArgs = documented("list", {
  /** Stop after this many items (default: all of them). */
  maxItems: z
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .positive("must be at least 1")
    .optional(),
});

/** Every lookup that lists takes this bound. */
export type ListArgs = ArgsOf<typeof listArgs>;

/** An id argument: text, blank refused. */
export const Id = z.string().trim().min(1, "must not be empty");
