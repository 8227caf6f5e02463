// Fault injection: ordered rules, posted on the control plane, that answer matching requests with a
// status, a reset connection or a delay, so that a client's retries can be tested.
import { z } from "zod";
import { parseInput } from "./validation";

/** What a fired rule did to a request, as the request log reports it. */
export type FaultKind = "status" | "reset" | "delay";

const statusAction = z.strictObject({
  status: z.number().int().min(400).max(599),
  retryAfter: z.number().int().min(0).optional(),
  message: z.string().optional(),
});
const resetAction = z.strictObject({ reset: z.literal(true) });
const delayAction = z.strictObject({ delayMs: z.number().int().min(0).max(600_000) });

/** One ordered fault rule as posted to `POST /_emulator/faults`. */
export const faultRuleSchema = z
  .object({
    method: z.string().min(1).default("*"),
    path: z.string().refine(isRegExpSource, { error: "must be a valid regular expression" }),
    action: z.union([statusAction, resetAction, delayAction], {
      error: "expected {status, retryAfter?, message?}, {reset: true} or {delayMs}",
    }),
    probability: z.number().min(0).max(1).optional(),
    times: z.number().int().min(1).optional(),
  })
  .refine((rule) => rule.probability === undefined || rule.times === undefined, {
    error: "give either probability or times, not both",
    path: ["times"],
  });

/** Body of `POST /_emulator/faults`. */
export const faultRulesBodySchema = z.object({ rules: z.array(faultRuleSchema) });

/** A fault rule as posted. */
export type FaultRuleInput = z.input<typeof faultRuleSchema>;
/** What a rule does: answer with an error status, drop the connection, or delay the request. */
export type FaultAction = z.output<typeof faultRuleSchema>["action"];

/** A stored rule with its bookkeeping: `remaining` counts down for `times` rules, `fired` counts firings. */
export interface FaultRule {
  id: number;
  method: string;
  path: string;
  action: FaultAction;
  probability?: number;
  times?: number;
  remaining?: number;
  fired: number;
}

/** The action of the rule that fired for a request, with the rule's id. */
export interface FiredFault {
  ruleId: number;
  kind: FaultKind;
  action: FaultAction;
}

/**
 * Ordered fault rules. For each request the rules are tried in order; the first rule that matches
 * the method and path, is not spent and wins its probability roll fires, and no other rule does.
 * A lost roll lets evaluation continue with the next rule, so rules compose like independent filters.
 */
export class FaultRules {
  private rules: (FaultRule & { pattern: RegExp })[] = [];
  private nextId = 1;

  /** Creates an empty rule list; `random` is injectable so probability can be tested deterministically. */
  constructor(private readonly random: () => number = Math.random) {}

  /** Appends rules and returns every rule; throws a 400 ApiError naming the bad property (e.g. `rules[0].path`). */
  add(rules: readonly FaultRuleInput[]): FaultRule[] {
    return this.addFromBody({ rules });
  }

  /** Validates a `{rules: [...]}` body, appends its rules and returns every rule. */
  addFromBody(body: unknown): FaultRule[] {
    for (const rule of parseInput(faultRulesBodySchema, body).rules) {
      this.rules.push({
        id: this.nextId++,
        method: rule.method.toUpperCase(),
        path: rule.path,
        action: rule.action,
        ...(rule.probability !== undefined && { probability: rule.probability }),
        ...(rule.times !== undefined && { times: rule.times, remaining: rule.times }),
        fired: 0,
        pattern: new RegExp(rule.path),
      });
    }
    return this.list();
  }

  /** Every rule, spent ones included, in evaluation order. */
  list(): FaultRule[] {
    return this.rules.map(({ pattern: _pattern, ...rule }) => ({ ...rule }));
  }

  /** Removes the rule with this id; returns whether there was one. */
  remove(id: number): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length < before;
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /** Picks the fault for a request, consuming one firing of a `times` rule; null when none fires. */
  match(method: string, path: string): FiredFault | null {
    for (const rule of this.rules) {
      if (rule.remaining === 0) continue;
      if (rule.method !== "*" && rule.method !== method.toUpperCase()) continue;
      if (!rule.pattern.test(path)) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      if (rule.remaining !== undefined) rule.remaining--;
      rule.fired++;
      return { ruleId: rule.id, kind: kindOf(rule.action), action: rule.action };
    }
    return null;
  }
}

function kindOf(action: FaultAction): FaultKind {
  if ("status" in action) return "status";
  if ("reset" in action) return "reset";
  return "delay";
}

function isRegExpSource(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
