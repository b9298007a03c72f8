/**
 * Every option's default in one table, as the text a user would write: the action's inputs by name
 * (`action.yml` declares the same defaults; a test compares them), and the CLI's flags of the same
 * meaning (cli/options.ts reads them here).
 */
export const DEFAULTS = {
  runs: '.assay/runs',
  audit: '.assay/audit',
  'allow-unmatched-records': 'false',
  'strict-observed': 'false',
  annotations: 'auto',
  annotate: 'all',
  'check-run-id': '',
  'check-name': 'side-effect receipts',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow expression action.yml declares, verbatim
  'github-token': '${{ github.token }}',
  summary: 'true',
  'sarif-file': '',
  'report-file': '',
  'working-directory': '.',
  'max-annotations': '1000',
  'max-file-size': '64MiB',
  'max-line-size': '8MiB',
  jobs: 'auto',
  require: '',
  'trusted-keys': '',
  'require-signed-records': 'false',
  'trusted-producers': '',
  'require-attested-runs': 'false',
  'vsa-predicate': '',
  vsa: '',
  'vsa-key': '',
  'trusted-signer-identities': '',
  'trusted-producer-identities': '',
  'source-refs': '',
  'certificate-oidc-issuer': 'https://token.actions.githubusercontent.com',
  'trusted-root': '',
  policy: '.github/receipt-gate.yml',
  cache: 'false',
} as const;

export type OptionName = keyof typeof DEFAULTS;
