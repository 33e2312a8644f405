// Checks JSON against a component of an OpenAPI 3.0 document (the one tsrestd serves at
// /openapi/v3), with ajv: the test's own reading of the document, independent of the
// fastify schemas the server compiled from it.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

export type Check = (component: string, data: unknown) => string[];

export function openapiChecker(document: { components: { schemas: Record<string, unknown> } }): Check {
  // OpenAPI's int64/int32/double formats are not ajv's own; `nullable` is understood by ajv 8.
  const ajv = new Ajv({ strict: false, allErrors: true, formats: { int32: true, int64: true, double: true } });
  ajv.addSchema({ $id: 'doc', components: document.components }, 'doc');
  const compiled = new Map<string, ValidateFunction>();
  return (component, data) => {
    let validate = compiled.get(component);
    if (!validate) {
      validate = ajv.compile({ $ref: `doc#/components/schemas/${component}` });
      compiled.set(component, validate);
    }
    return validate(data) ? [] : (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath} ${e.message ?? ''}`);
  };
}
