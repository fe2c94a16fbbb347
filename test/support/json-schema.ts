import { Ajv2020 } from 'ajv/dist/2020.js';
import * as formats from 'ajv-formats';

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS: its plugin is the module itself or its `default`, depending on the loader
const addFormats = ((formats as unknown as { default?: FormatsPlugin }).default ??
  (formats as unknown as FormatsPlugin)) as FormatsPlugin;

/** Validates values against schemas of one OpenAPI document, `$ref`s into its components resolved. */
export function documentValidator(components: unknown) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components });
  const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
  return (schema: unknown, value: unknown): string[] => {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
    let validate = compiled.get(text);
    if (!validate) {
      validate = ajv.compile(JSON.parse(text) as object);
      compiled.set(text, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}
