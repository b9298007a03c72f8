/**
 * A GitHub web URL of an issue, a pull request or a comment (`https://github.com/OWNER/REPO/issues/N`,
 * `…/pull/N`, `…#issuecomment-M`): what gh-aw's manifest and GitHub's MCP server give for a write
 * when they give no id of their own. github.com only: a subject names no host, so another host's
 * issue 12 must never bind github.com's (GitHub Enterprise Server's writes bind by their id fields).
 */
const URL_SHAPE = /^https:\/\/github\.com\/([^/\s#?]+)\/([^/\s#?]+)\/(issues|pull)\/([1-9]\d{0,14})(?:#issuecomment-([1-9]\d{0,14}))?$/;

export interface GithubUrl {
  readonly owner: string;
  readonly repo: string;
  /** The url names an issue (not a pull request). */
  readonly issue: boolean;
  readonly number: number | null;
  readonly commentId: number | null;
}

const positive = (digits: string | undefined): number | null => {
  const n = digits === undefined ? Number.NaN : Number(digits);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

export function githubUrl(url: string): GithubUrl | null {
  const parts = URL_SHAPE.exec(url);
  if (!parts?.[1] || !parts[2]) return null;
  return { owner: parts[1], repo: parts[2], issue: parts[3] === 'issues', number: positive(parts[4]), commentId: positive(parts[5]) };
}
