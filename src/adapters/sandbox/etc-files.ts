// The few /etc files the sandbox writes itself instead of showing the host's: the host's
// passwd and group list its accounts, and its hosts file names its machines. Tools still
// find a user for the sandbox's uid (git, npm and Node's os.userInfo() ask) and resolve
// localhost.

export interface SandboxIdentity {
  uid: number;
  gid: number;
}

/** passwd, group and (without network) hosts, as file name → content. */
export function etcFiles(id: SandboxIdentity, network: boolean): Record<string, string> {
  const users = [
    "root:x:0:0:root:/root:/bin/sh",
    ...(id.uid === 0 || id.uid === 65534
      ? []
      : [`cfa:x:${id.uid}:${id.gid}:cfa sandbox:/tmp:/bin/sh`]),
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin",
  ];
  const groups = [
    "root:x:0:",
    ...(id.gid === 0 || id.gid === 65534 ? [] : [`cfa:x:${id.gid}:`]),
    "nogroup:x:65534:",
  ];
  const files: Record<string, string> = {
    passwd: `${users.join("\n")}\n`,
    group: `${groups.join("\n")}\n`,
  };
  // Without network only the loopback exists; with it the host's own hosts file is shown.
  if (!network) files.hosts = "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n";
  return files;
}
