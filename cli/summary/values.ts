// Values as the preview shows them, and the secrets among them, which the summary never prints:
// masked as "[secret]", or a state file's secret signature object.
import { isRecord } from "../../provider/resources/inputs";

/** A resource's inputs or outputs, by property name. */
export type Props = Record<string, unknown>;

/** The key of the object that marks a secret in Pulumi's state format. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
/** How `pulumi preview --json` shows a secret value. */
const MASKED_SECRET = "[secret]";

/** Whether a value is a masked secret: "[secret]" or a state file's secret object. */
export function isMasked(value: unknown): boolean {
  return value === MASKED_SECRET || (isRecord(value) && SECRET_SIGNATURE in value);
}

/** Whether a value is a secret or holds one anywhere inside. */
export function containsSecret(value: unknown): boolean {
  if (isMasked(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  return isRecord(value) && Object.values(value).some(containsSecret);
}
