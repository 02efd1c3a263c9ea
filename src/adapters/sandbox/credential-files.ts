// Files that carry credentials, wherever they are in a folder the sandbox shows (a toolchain:
// the Actions tool cache, ~/.cargo, a `sandbox.readOnlyPaths` entry): each is covered by an
// empty file, at any depth — `npm config set -g` writes `<prefix>/etc/npmrc` inside a
// setup-node install, `cargo` keeps a registry token in `~/.cargo/credentials.toml` and git
// remotes with tokens in `~/.cargo/git/db/*/config`, a setup-python install reads a site
// `pip.conf` beside its interpreter. The names are the package managers' and tools' own
// documented configuration and credential files (the README's "Sandbox" lists them):
//
// - npm: `.npmrc` (per project and user), `npmrc` (global `$PREFIX/etc/npmrc`, npm's builtin
//   one) — https://docs.npmjs.com/cli/v11/configuring-npm/npmrc; Yarn: `.yarnrc`,
//   `.yarnrc.yml` (`npmAuthToken`) — https://yarnpkg.com/configuration/yarnrc;
// - pip: `pip.conf`, `pip.ini` (global, user and site: "the file pip.conf in sys.prefix") —
//   https://pip.pypa.io/en/stable/topics/configuration/; `.pypirc` —
//   https://packaging.python.org/en/latest/specifications/pypirc/;
// - Cargo: `credentials.toml`, `credentials`, and `config.toml`/`config` in a `.cargo` folder
//   — https://doc.rust-lang.org/cargo/reference/config.html#credentials;
// - RubyGems: `.gem/credentials`, `.gemrc` — https://guides.rubygems.org/command-reference/;
//   Bundler: `.bundle/config` — https://bundler.io/man/bundle-config.1.html;
// - Maven: `settings.xml`, `settings-security.xml` —
//   https://maven.apache.org/settings.html, https://maven.apache.org/guides/mini/guide-encryption.html;
//   Gradle: `gradle.properties` — https://docs.gradle.org/current/userguide/build_environment.html;
//   NuGet: `NuGet.Config` (`packageSourceCredentials`) —
//   https://learn.microsoft.com/en-us/nuget/reference/nuget-config-file; Composer: `auth.json`
//   — https://getcomposer.org/doc/articles/authentication-for-private-packages.md;
// - git: `.git-credentials` (credential-store) — https://git-scm.com/docs/git-credential-store;
//   `.gitconfig` and a repository's `config` (remote URLs and `http.extraHeader` can hold a
//   token) — https://git-scm.com/docs/git-config#FILES; curl and git: `.netrc`, `_netrc` —
//   https://everything.curl.dev/usingcurl/netrc;
// - Docker: `.docker/config.json` (`auths`), `.dockercfg` —
//   https://docs.docker.com/reference/cli/docker/login/; the GitHub CLI: `gh/hosts.yml` —
//   https://cli.github.com/manual/gh_auth_login; AWS: `.aws/credentials`, `.aws/config` —
//   https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html; Google Cloud:
//   `application_default_credentials.json`, `credentials.db`, `access_tokens.db`; kubectl:
//   `.kube/config`; Terraform: `.terraformrc`, `credentials.tfrc.json`; boto `.boto`, s3cmd
//   `.s3cfg`, PostgreSQL `.pgpass`, MySQL `.my.cnf`;
// - SSH private keys (`id_rsa`, `id_ecdsa`, `id_ed25519`, … and their `_sk` forms), token
//   files (`token`, `.token`) and dotenv files (`.env`).
//
// A link by one of these names is followed and its target covered when it is a file the
// sandbox shows. What is not a file by these names (a program that prints a token) is not
// found: the walk reads names, not contents.

import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";

/** Covered wherever they are. */
export const CREDENTIAL_NAMES: ReadonlySet<string> = new Set([
  ".npmrc",
  "npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  "pip.conf",
  "pip.ini",
  ".pypirc",
  "credentials",
  "credentials.toml",
  "credentials.json",
  "credentials.db",
  "access_tokens.db",
  "application_default_credentials.json",
  "credentials.tfrc.json",
  ".gemrc",
  "settings.xml",
  "settings-security.xml",
  "gradle.properties",
  "NuGet.Config",
  "nuget.config",
  "auth.json",
  ".git-credentials",
  ".gitconfig",
  ".netrc",
  "_netrc",
  ".dockercfg",
  ".terraformrc",
  ".boto",
  ".s3cfg",
  ".pgpass",
  ".my.cnf",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  "id_ecdsa_sk",
  "id_ed25519_sk",
  "token",
  ".token",
  ".env",
]);

/** Covered in a folder of this name: `<folder>/<file>`. */
const IN_FOLDER: Readonly<Record<string, readonly string[]>> = {
  ".cargo": ["config.toml", "config"],
  ".bundle": ["config"],
  ".docker": ["config.json"],
  gh: ["hosts.yml"],
  ".aws": ["config"],
  ".kube": ["config"],
};

/** Every file name IN_FOLDER covers, whatever its folder: the walk's cheap first test. */
const IN_FOLDER_NAMES: ReadonlySet<string> = new Set(Object.values(IN_FOLDER).flat());

/** Whether `name` in `folder` (whose entries are `siblings`) is credential-shaped. */
export function isCredentialFile(
  folder: string,
  name: string,
  siblings: ReadonlySet<string>,
): boolean {
  if (CREDENTIAL_NAMES.has(name)) return true;
  if (IN_FOLDER[path.basename(folder)]?.includes(name)) return true;
  // A git directory's own config (a bare repository, or a `.git` folder): remotes with tokens.
  return (
    (name === "config" || name === "FETCH_HEAD") && siblings.has("HEAD") && siblings.has("objects")
  );
}

/** Folders read at once: readdir runs on libuv's pool, so the walk does not hold the thread. */
const WIDTH = 16;

/**
 * Walks already made in this process, by folder list: a toolchain folder is read-only to
 * every command and installed before the worker starts (setup-node and the like run in
 * earlier steps), and ~/.rustup alone is 120,000 entries.
 */
const walked = new Map<string, Promise<string[]>>();

/**
 * The credential-shaped files in `folders` at any depth: real paths of regular files, each
 * inside one of `folders`. Links are not descended; a link by a credential name adds its
 * target when that is a file in `folders`. Walked once per process for the same folders.
 */
export function credentialFilesIn(folders: readonly string[]): Promise<string[]> {
  const key = [...folders].sort().join("\0");
  let files = walked.get(key);
  if (files === undefined) {
    files = walk(folders);
    walked.set(key, files);
    files.catch(() => walked.delete(key));
  }
  return files;
}

async function walk(folders: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  const inShown = (p: string) => folders.some((f) => p === f || p.startsWith(`${f}/`));
  const queue = [...folders];
  const links: string[] = [];
  let active = 0;
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      if (queue.length === 0 && active === 0) return resolve();
      while (active < WIDTH && queue.length > 0) {
        const dir = queue.pop()!;
        active += 1;
        readdir(dir, { withFileTypes: true })
          .then((entries) => {
            // The per-entry work is kept to the name test (a toolchain is ~120,000 entries,
            // walked on the engine's thread): a path is joined only for a folder to descend
            // or a match, and the sibling names only when a git dir's config could be there.
            const prefix = dir.endsWith("/") ? dir : `${dir}/`;
            let names: ReadonlySet<string> | undefined;
            for (const entry of entries) {
              if (entry.isDirectory()) {
                queue.push(prefix + entry.name);
                continue;
              }
              const maybe =
                CREDENTIAL_NAMES.has(entry.name) ||
                entry.name === "config" ||
                entry.name === "FETCH_HEAD" ||
                IN_FOLDER_NAMES.has(entry.name);
              if (!maybe) continue;
              names ??= new Set(entries.map((e) => e.name));
              if (!isCredentialFile(dir, entry.name, names)) continue;
              if (entry.isFile()) found.add(prefix + entry.name);
              else if (entry.isSymbolicLink()) links.push(prefix + entry.name);
            }
          })
          .catch(() => undefined)
          .finally(() => {
            active -= 1;
            pump();
          });
      }
    };
    pump();
  });
  for (const link of links) {
    const target = await realpath(link).catch(() => null);
    if (target === null || !inShown(target)) continue;
    if ((await stat(target).catch(() => null))?.isFile()) found.add(target);
  }
  return [...found].sort();
}
