/** The policy files the pull-request and verdict tests share: the default path, one strict rule for prod deploy keys, and the same rule loosened. */
export const POLICY = '.github/receipt-gate.yml';
export const STRICT = `version: 1
rules:
  - name: prod-keys
    match: {class: github_deploy_key, target: {repo: [prod-*]}}
    require: verified
`;
export const LOOSE = STRICT.replace('require: verified', 'require: asserted');
