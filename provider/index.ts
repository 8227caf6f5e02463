// The package's public surface: resources, their argument and output types, and errors.
export { ConfigField, ConfigFieldArgs, ConfigFieldRecord, NameValueInput } from "./resources/configField";
export { ApplicationEvent, ApplicationEventArgs, DeclaredKey, EventDefinition, EventResponseSample } from "./resources/applicationEvent";
export { WorkflowToggle, WorkflowToggleArgs } from "./resources/workflowToggle";
export { EnvVariableValue, EnvVariableValueArgs } from "./resources/envVariableValue";
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  GoneError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  SettingsError,
} from "./client/errors";
export { SETTINGS } from "./settings";
