// The code of the App.java that `import --language java` writes, as a program javac checks against
// the SDK (test/unit/importLanguages.test.ts compiles it): renderJava (cli/import/java.ts) copies what
// follows the begin marker, writes the data in place of each data block's stand-ins, and leaves out
// an if block whose condition the plan does not meet.
//#begin
package platform;

import com.google.gson.Gson;
import com.google.gson.reflect.TypeToken;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import com.pulumi.resources.CustomResourceOptions;
import io.github.pulumiintegrationplatform.integrationplatform.EnvVariableValue;
import io.github.pulumiintegrationplatform.integrationplatform.EnvVariableValueArgs;
import io.github.pulumiintegrationplatform.integrationplatform.LinkedAccountSetup;
import io.github.pulumiintegrationplatform.integrationplatform.LinkedAccountSetupArgs;
import io.github.pulumiintegrationplatform.integrationplatform.inputs.ConfigFieldValuesArgs;
import io.github.pulumiintegrationplatform.integrationplatform.inputs.NameValueArgs;
import io.github.pulumiintegrationplatform.integrationplatform.inputs.SetupEnvValueArgs;
import io.github.pulumiintegrationplatform.integrationplatform.inputs.SetupFieldArgs;
import io.github.pulumiintegrationplatform.integrationplatform.inputs.SetupWorkflowArgs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

public class App {
    //#if env
    /** The env variable definitions the values below use, by name. */
    static Map<String, Definition> definitions() {
        var definitions = new LinkedHashMap<String, Definition>();
        //#data definitions
        definitions.put("API_TOKEN", new Definition("64f0000000000000000000d4", true));
        //#end
        return definitions;
    }

    //#end
    /**
     * One linked account's setup of one app each, in its config named after the account: the fields
     * whose name, options or labels differ from the app's own or that hold a value, the workflows enabled (the others are
     * not managed), the account's own env values and its env values of this app's workflows.
     */
    static List<Setup> setups() {
        var setups = new ArrayList<Setup>();
        //#data setups
        setups.add(setup("acme", "hubspot").workflows("wf_sync").env("API_TOKEN", secret("API_TOKEN-acme")));
        //#end
        return setups;
    }

    //#if env
    /** Env values of the org, the workspace, and workflows for every linked account. */
    static List<Shared> sharedEnvValues() {
        var shared = new ArrayList<Shared>();
        //#data shared
        shared.add(new Shared("API_TOKEN", secret("API_TOKEN"), "wf_sync"));
        //#end
        return shared;
    }

    //#end
    record Definition(String id, boolean encrypted) {}

    record NameValue(String name, String value) {}

    /** An env value: its text, or the stack config key of an encrypted one. */
    record Value(String text, String secretKey) {}

    record Env(String definition, Value value, String workflowId) {}

    record Shared(String definition, Value value, String workflowId) {}

    /** A field as a data line declares it, and as found.json holds what was found of it. */
    static final class Field {
        String fieldId;
        String workflowId;
        String name;
        List<NameValue> options;
        List<NameValue> labels;
        /** The field's value: a String, a Double, or a Map of Strings; null for none. */
        Object value;

        Field workflowId(String workflowId) {
            this.workflowId = workflowId;
            return this;
        }

        Field name(String name) {
            this.name = name;
            return this;
        }

        Field options(NameValue... options) {
            this.options = List.of(options);
            return this;
        }

        Field labels(NameValue... labels) {
            this.labels = List.of(labels);
            return this;
        }

        Field value(Object value) {
            this.value = value;
            return this;
        }
    }

    static final class Setup {
        final String linkedAccountId;
        final String slug;
        final List<Field> fields = new ArrayList<>();
        final List<String> workflows = new ArrayList<>();
        final List<Env> env = new ArrayList<>();

        Setup(String linkedAccountId, String slug) {
            this.linkedAccountId = linkedAccountId;
            this.slug = slug;
        }

        Setup fields(Field... fields) {
            this.fields.addAll(List.of(fields));
            return this;
        }

        Setup workflows(String... workflowIds) {
            this.workflows.addAll(List.of(workflowIds));
            return this;
        }

        /** One of the linked account's own env values. */
        Setup env(String definition, Value value) {
            this.env.add(new Env(definition, value, null));
            return this;
        }

        /** One of the linked account's env values of a workflow of this app. */
        Setup workflowEnv(String workflowId, String definition, Value value) {
            this.env.add(new Env(definition, value, workflowId));
            return this;
        }
    }

    /** What the import found in one data line's config: found.json holds one per line. */
    static final class Found {
        String linkedAccountId;
        String slug;
        List<Field> fields;
        Map<String, Boolean> workflows;
        List<String> env;
    }

    static Setup setup(String linkedAccountId, String slug) {
        return new Setup(linkedAccountId, slug);
    }

    static Field field(String fieldId) {
        var field = new Field();
        field.fieldId = fieldId;
        return field;
    }

    static NameValue nv(String name, String value) {
        return new NameValue(name, value);
    }

    static Value text(String text) {
        return new Value(text, null);
    }

    /** An encrypted env value: the platform never shows it, so it comes from this stack's secret config (README.md). */
    static Value secret(String key) {
        return new Value(null, key);
    }

    static Output<String> input(Context ctx, Value value) {
        return value.secretKey() != null ? ctx.config().requireSecret(value.secretKey()) : Output.of(value.text());
    }

    static String lineKey(String linkedAccountId, String slug) {
        return new Gson().toJson(List.of(linkedAccountId, slug));
    }

    /**
     * What the import found, frozen in found.json apart from the data above: `pulumi destroy`, or
     * removing a line, a field or a workflow, puts it back however the data was changed since
     * (README.md). Declaring it writes nothing.
     */
    static Map<String, Found> readFound() {
        try {
            List<Found> records = new Gson().fromJson(
                Files.readString(Path.of("found.json"), StandardCharsets.UTF_8), new TypeToken<List<Found>>() {}.getType());
            var byLine = new LinkedHashMap<String, Found>();
            for (var record : records) byLine.put(lineKey(record.linkedAccountId, record.slug), record);
            return byLine;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<NameValueArgs> nameValues(List<NameValue> items) {
        return items.stream().map(i -> NameValueArgs.builder().name(i.name()).value(i.value()).build()).toList();
    }

    /**
     * A field's restoreOnDelete: the value found of each of name, options, labels and value that it
     * declares. None when it declares one that was not found (declared since): ConfigField then puts
     * back what it recorded when it took each over.
     */
    static ConfigFieldValuesArgs restoreField(Field field, Found was) {
        if (was == null || was.fields == null) return null;
        for (var then : was.fields) {
            if (!then.fieldId.equals(field.fieldId) || !Objects.equals(then.workflowId, field.workflowId)) continue;
            if ((field.name != null && then.name == null) || (field.options != null && then.options == null)
                    || (field.labels != null && then.labels == null)
                    || (field.value != null && then.value == null)) return null;
            var restore = ConfigFieldValuesArgs.builder();
            if (field.name != null) restore.name(then.name);
            if (field.options != null) restore.options(nameValues(then.options));
            if (field.labels != null) restore.labels(nameValues(then.labels));
            if (field.value != null) restore.value(then.value);
            return restore.build();
        }
        return null;
    }

    /** A workflow's restoreOnDelete: whether it was found enabled; none for one its config did not list. */
    static Boolean restoreWorkflow(String workflowId, Found was) {
        return was == null ? null : was.workflows.get(workflowId);
    }

    //#if env
    /**
     * Env values as LinkedAccountSetup takes them. Those the import found are kept on the platform
     * by `pulumi destroy` (retainOnDelete), since end users' running workflows read them; an
     * encrypted one is taken over as the platform holds it (adoptEncryptedValue: README.md). One the
     * import did not find (added to the data since) declares noValueBefore: destroy deletes it.
     */
    static List<SetupEnvValueArgs> envValues(Context ctx, Map<String, Definition> definitions, Setup setup, Found was) {
        var declared = new ArrayList<SetupEnvValueArgs>();
        for (var env : setup.env) {
            var definition = definitions.get(env.definition());
            var key = env.workflowId() == null ? definition.id() : definition.id() + "/" + env.workflowId();
            var args = SetupEnvValueArgs.builder().definitionId(definition.id()).value(input(ctx, env.value()));
            if (env.workflowId() != null) args.workflowId(env.workflowId());
            if (was != null && was.env != null && !was.env.contains(key)) args.noValueBefore(true);
            else args.adoptEncryptedValue(definition.encrypted()).retainOnDelete(true);
            declared.add(args.build());
        }
        return declared;
    }

    //#end
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var found = readFound();
        //#if env
        var definitions = definitions();
        //#end
        for (var setup : setups()) {
            var was = found.get(lineKey(setup.linkedAccountId, setup.slug));
            // What destroy puts back comes from found.json, not from the data.
            var fields = new ArrayList<SetupFieldArgs>();
            for (var field : setup.fields) {
                var declared = SetupFieldArgs.builder().fieldId(field.fieldId);
                if (field.workflowId != null) declared.workflowId(field.workflowId);
                if (field.name != null) declared.name(field.name);
                if (field.options != null) declared.options(nameValues(field.options));
                if (field.labels != null) declared.labels(nameValues(field.labels));
                if (field.value != null) declared.value(field.value);
                var restore = restoreField(field, was);
                if (restore != null) declared.restoreOnDelete(restore);
                fields.add(declared.build());
            }
            var workflows = new LinkedHashMap<String, SetupWorkflowArgs>();
            for (var workflowId : setup.workflows) {
                var toggle = SetupWorkflowArgs.builder().enabled(true);
                var restore = restoreWorkflow(workflowId, was);
                if (restore != null) toggle.restoreOnDelete(restore);
                workflows.put(workflowId, toggle.build());
            }
            var declared = LinkedAccountSetupArgs.builder()
                .linkedAccountId(setup.linkedAccountId).slug(setup.slug).fields(fields).workflows(workflows);
            //#if env
            declared.envValues(envValues(ctx, definitions, setup, was));
            //#end
            new LinkedAccountSetup(setup.linkedAccountId + "-" + setup.slug, declared.build());
        }
        //#if env
        for (var shared : sharedEnvValues()) {
            var definition = definitions.get(shared.definition());
            var args = EnvVariableValueArgs.builder().definitionId(definition.id()).value(input(ctx, shared.value()))
                .adoptEncryptedValue(definition.encrypted());
            if (shared.workflowId() != null) args.workflowId(shared.workflowId());
            var name = "env/" + shared.definition() + (shared.workflowId() == null ? "" : "/" + shared.workflowId());
            new EnvVariableValue(name, args.build(), CustomResourceOptions.builder().retainOnDelete(true).build());
        }
        //#end
    }
}
