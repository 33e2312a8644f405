// Small builders for the OpenAPI 3.0 schemas of openapi/components.ts, so each field reads as
// one line: its type and the description slurmrestd's document gives it.
export type Schema = Record<string, unknown>;

export const str = (description: string): Schema => ({ type: 'string', description });
export const int = (description: string): Schema => ({ type: 'integer', description });
export const int64 = (description: string): Schema => ({ type: 'integer', format: 'int64', description });
export const num = (description: string): Schema => ({ type: 'number', description });
export const bool = (description: string): Schema => ({ type: 'boolean', description });
export const strings = (description: string): Schema => ({ type: 'array', description, items: { type: 'string' } });
/** OpenAPI 3.0's way to say a field may be null (Slurm writes null for unset values). */
export const nullable = (schema: Schema): Schema => ({ ...schema, nullable: true });
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const list = (description: string, name: string): Schema => ({ type: 'array', description, items: ref(name) });

/** An object of these properties; `required` lists what tsrestd always sends or needs. */
export function object(properties: Record<string, Schema>, required: readonly string[] = [], extra: Schema = {}): Schema {
  return { type: 'object', properties, ...(required.length > 0 && { required: [...required] }), ...extra };
}

/** A v0.0.38 answer: meta, errors, and its own payload. */
export function response(payload: Record<string, Schema>): Schema {
  return object({ meta: ref('v0.0.38_meta'), errors: list('slurm errors', 'v0.0.38_error'), ...payload }, ['meta', 'errors']);
}
