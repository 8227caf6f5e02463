// Application events (docs/design/contract.md#application-events): an event an app receives, its
// name and the response keys declared from a sample. The platform has an update and no read.
import { z } from "zod";
import type { PlatformClient } from "./http";
import { segment } from "./ids";

/** An application event record (docs/design/contract.md#application-events). */
export const ApplicationEventRecord = z.looseObject({
  _id: z.string(),
  name: z.string(),
  response: z.array(z.looseObject({ key: z.string(), type: z.string() })),
  raw_response: z.string().nullish(),
});
/** An application event as the platform returns it. */
export type ApplicationEventRecord = z.infer<typeof ApplicationEventRecord>;

/** The event update returns every event of the org (docs/design/contract.md#application-events). */
export const ApplicationEventList = z.array(ApplicationEventRecord);

/** `PUT /application/event/:eventId` (docs/design/contract.md#application-events); returns every event of the org. */
export async function updateApplicationEvent(
  client: PlatformClient,
  eventId: string,
  body: { name: string; response: unknown },
): Promise<ApplicationEventRecord[]> {
  return client.write({
    method: "PUT",
    path: `/application/event/${segment("eventId", eventId)}`,
    auth: "apiKey",
    body,
    response: ApplicationEventList,
  });
}
