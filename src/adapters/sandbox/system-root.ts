// What of the host a sandbox shows, and only what its commands need: an allowlist, each entry with
// its reason, read-only. Everything else — /home, /root, /run, /var, /tmp, /srv, /mnt, /sys, the
// rest of /etc — is absent or an empty folder, so no host file, secret or Unix socket
// (/run/docker.sock, /var/run/…, a user's agent socket under /run/user or /tmp) can be reached by
// path. On GitHub-hosted runners /run/docker.sock is root:docker 0770 (actions/runner-images,
// images/ubuntu/scripts/build/install-docker.sh) and the runner user is in the docker group
// (`groups` there prints `docker adm systemd-journal`: ubicloud/ubicloud#579), so that socket
// is the host itself.

import { lstat, readdir, readlink } from "node:fs/promises";
import path from "node:path";

/** Folders bound read-only at their own path when they exist on the host. */
export const SYSTEM_FOLDERS = [
  // Programs, libraries, data and /usr/local: what every command runs from.
  "/usr",
  // Not /opt: a self-hosted runner may live there (/opt/actions-runner, with its RSA key
  // and the job's files-commands). Its toolchains (/opt/hostedtoolcache, where
  // setup-node and friends install, and the image's /opt/pipx) are shown one by one
  // (toolchain-paths.ts).
] as const;

/**
 * The top-level links of a merged-/usr system (Debian ≥ 12, Ubuntu ≥ 20.04: /bin → usr/bin),
 * recreated as the same links; where one is a real folder (older systems) it is bound
 * read-only instead.
 */
export const TOP_LEVEL_LINKS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;

/**
 * Files and folders of /etc that commands need, and why. Not here, on purpose: passwd,
 * group and hosts (written for the sandbox instead, see etc-files.ts), shadow, gshadow,
 * sudoers, ssh/, ssl/private/, gitconfig and npmrc and pip.conf (host configuration that can
 * carry credentials or run programs), environment, machine-id, hostname.
 */
export const ETC_ENTRIES: readonly { path: string; why: string }[] = [
  { path: "/etc/ld.so.cache", why: "the dynamic linker finds shared libraries through it" },
  { path: "/etc/ld.so.conf", why: "the dynamic linker's search folders" },
  { path: "/etc/ld.so.conf.d", why: "the dynamic linker's search folders (multiarch)" },
  { path: "/etc/alternatives", why: "Debian's program links (awk, editor, java…) point here" },
  { path: "/etc/nsswitch.conf", why: "how glibc looks up users, groups and hosts" },
  { path: "/etc/host.conf", why: "glibc's resolver options" },
  { path: "/etc/gai.conf", why: "getaddrinfo's address ordering" },
  { path: "/etc/services", why: "port names (getservbyname), used by git, curl, python" },
  { path: "/etc/protocols", why: "protocol names (getprotobyname)" },
  { path: "/etc/localtime", why: "the local time zone" },
  { path: "/etc/timezone", why: "the time zone's name" },
  { path: "/etc/ssl/certs", why: "CA certificates for TLS (git, curl, npm with network)" },
  { path: "/etc/ssl/openssl.cnf", why: "OpenSSL's configuration (/usr/lib/ssl links to it)" },
  { path: "/etc/ca-certificates.conf", why: "which CA certificates are trusted" },
  { path: "/etc/pki/tls/certs", why: "CA certificates on Fedora/RHEL-style systems" },
  { path: "/etc/pki/ca-trust", why: "CA trust store on Fedora/RHEL-style systems" },
  { path: "/etc/os-release", why: "the OS identity build tools read" },
  { path: "/etc/lsb-release", why: "the OS identity (Ubuntu)" },
  { path: "/etc/debian_version", why: "the OS identity (Debian)" },
  { path: "/etc/mime.types", why: "file types by extension (python, some build tools)" },
];

/** Only with network: the host's name resolution (its resolver and static host names). */
export const NETWORK_ETC_ENTRIES: readonly { path: string; why: string }[] = [
  { path: "/etc/resolv.conf", why: "the DNS resolver" },
  { path: "/etc/hosts", why: "static host names (without network, a loopback-only one)" },
];

/**
 * /etc folders of language runtimes that their files under /usr link into (Debian keeps
 * /usr/lib/jvm/*\/conf, Python's sitecustomize and Perl's configuration there): `java`
 * does not start without its own.
 */
export const ETC_RUNTIME_PREFIXES = ["java-", "python3", "perl"] as const;

export interface SystemRoot {
  /** Existing folders bound read-only at their own path. */
  folders: string[];
  /** Links recreated in the sandbox: path → target, as on the host. */
  links: { path: string; target: string }[];
  /** Existing /etc entries bound read-only at their own path. */
  etc: string[];
  /** Existing /etc entries bound only when the command has network. */
  networkEtc: string[];
}

/** Reads which of the allowlist this host has; once per process is enough. */
export async function discoverSystemRoot(root = "/"): Promise<SystemRoot> {
  const at = (p: string) => path.join(root, p);
  const exists = async (p: string) => (await lstat(at(p)).catch(() => null)) !== null;
  const result: SystemRoot = { folders: [], links: [], etc: [], networkEtc: [] };
  for (const folder of SYSTEM_FOLDERS) {
    const info = await lstat(at(folder)).catch(() => null);
    if (info?.isDirectory()) result.folders.push(folder);
  }
  for (const link of TOP_LEVEL_LINKS) {
    const info = await lstat(at(link)).catch(() => null);
    if (info === null) continue;
    if (info.isSymbolicLink()) result.links.push({ path: link, target: await readlink(at(link)) });
    else if (info.isDirectory()) result.folders.push(link);
  }
  for (const entry of ETC_ENTRIES) if (await exists(entry.path)) result.etc.push(entry.path);
  const names = await readdir(at("/etc")).catch(() => [] as string[]);
  for (const name of names.sort()) {
    if (ETC_RUNTIME_PREFIXES.some((prefix) => name.startsWith(prefix))) {
      result.etc.push(`/etc/${name}`);
    }
  }
  for (const entry of NETWORK_ETC_ENTRIES) {
    if (await exists(entry.path)) result.networkEtc.push(entry.path);
  }
  return result;
}
