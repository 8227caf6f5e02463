// The emulator's command line form of a webhook receiver, `--webhook [EVENTS@]URL`. Apart from
// emulator/webhooks.ts so that the command line checks its options without loading axios.

/** How to register a receiver: its URL and, optionally, the events it wants (all four by default). */
export interface WebhookReceiverInput {
  url: string;
  /** Event names ("Workflow Completed") or statuses ("COMPLETED", "completed", "timed_out"); default all four. */
  events?: string[];
}

/** The command line's form of a receiver, `[EVENTS@]URL`, e.g. `completed,errored@http://127.0.0.1:9000/hook`. */
export function parseReceiverOption(text: string): WebhookReceiverInput {
  const match = /^([A-Za-z_ ,]+)@(https?:\/\/.*)$/.exec(text);
  return match ? { url: match[2], events: match[1].split(",").filter((e) => e.trim() !== "") } : { url: text };
}
