/** The version receipt-gate reports (SARIF, --version); package.json says the same (a test compares). */
export const VERSION = '0.2.0';
