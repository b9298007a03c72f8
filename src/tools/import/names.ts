/**
 * The import kinds' names, in the order the usage lists them: a list of its own, light, so the CLI
 * names the kinds in its option table without loading an importer (the `import` command's code is
 * loaded when it runs). The registry (kinds.ts) holds one module for each name, no more, no fewer.
 */
import { named } from '../../core/lists.js';

export const IMPORT_KIND_NAMES = [
  'github-audit-log',
  'github-webhook',
  'slack-audit-log',
  'aws-cloudtrail',
  'k8s-audit',
  'okta-system-log',
] as const;

export type ImportKind = (typeof IMPORT_KIND_NAMES)[number];

/** The export kind a user named, or null. */
export const importKind = (name: string): ImportKind | null => named(IMPORT_KIND_NAMES, name);
