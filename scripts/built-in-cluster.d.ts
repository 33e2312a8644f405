// Types of scripts/built-in-cluster.js for its unit test.
export function builtInClusterPlugin(root: string): Promise<unknown>;
export function generatedDefaults(root: string): Promise<string>;
