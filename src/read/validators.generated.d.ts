// Types of the validators scripts/gen-validators.mjs generates (ajv standalone).
export interface GeneratedValidator {
  (value: unknown): boolean;
  errors?: { instancePath: string; schemaPath: string; keyword: string; message?: string; params: unknown }[] | null;
}
export declare const decision: GeneratedValidator;
export declare const record: GeneratedValidator;
export declare const policyFile: GeneratedValidator;
/** The policy file's schema (schemas/policy.schema.json): where a misspelt key's neighbours are read. */
export declare const policySchema: unknown;
export declare const mappingFile: GeneratedValidator;
/** The mapping file's schema (schemas/tool-mapping.schema.json): where a misspelt key's neighbours are read. */
export declare const mappingSchema: unknown;
