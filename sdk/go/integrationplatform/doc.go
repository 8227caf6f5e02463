// Config fields, application events, workflow toggles and env variable values of the integration platform, as code.
package integrationplatform
