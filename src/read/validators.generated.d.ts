// Types of the validators scripts/gen-validators.mjs generates (ajv standalone).
export interface GeneratedValidator {
  (value: unknown): boolean;
  errors?: { instancePath: string; keyword: string; message?: string; params: unknown }[] | null;
}
export declare const decision: GeneratedValidator;
export declare const record: GeneratedValidator;
