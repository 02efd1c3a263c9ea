// GitHub's hard limit on one file. "About large files on GitHub"
// (https://docs.github.com/en/repositories/working-with-files/managing-large-files/about-large-files-on-github):
// GitHub warns when a pushed file is larger than 50 MiB and blocks files larger than 100 MiB
// — the push is refused (GH001, "this exceeds GitHub's file size limit of 100.00 MB"), and so
// is every later push of a branch whose history holds one. The "Repository limits" page says
// the same of a single object: recommended at most 1 MB, "enforced at 100 MB".

export const GITHUB_FILE_LIMIT_MIB = 100;
export const MIB = 1024 * 1024;
/** Files larger than this are never committed, whatever the configuration says. */
export const GITHUB_FILE_LIMIT_BYTES = GITHUB_FILE_LIMIT_MIB * MIB;
