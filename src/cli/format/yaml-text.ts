// YAML for --yaml; its own module so the YAML library loads only when asked for.
import { stringify } from 'yaml';

export function yamlText(doc: unknown): string {
  return stringify(doc);
}
