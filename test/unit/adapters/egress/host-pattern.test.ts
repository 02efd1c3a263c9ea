import { describe, expect, it } from "vitest";
import { deniedAddressReason } from "../../../../src/adapters/egress/denied-address.js";
import { hostMatcher } from "../../../../src/adapters/egress/host-pattern.js";

describe("hostMatcher", () => {
  const allowed = hostMatcher([
    "registry.npmjs.org",
    "*.pythonhosted.org",
    "mirror.example.com:8443",
  ]);

  it.each([
    ["registry.npmjs.org", 443, true],
    ["registry.npmjs.org", 80, true],
    ["REGISTRY.npmjs.org.", 443, true],
    ["registry.npmjs.org", 22, false],
    ["evilregistry.npmjs.org", 443, false],
    ["registry.npmjs.org.evil.example", 443, false],
    ["npmjs.org", 443, false],
    ["files.pythonhosted.org", 443, true],
    ["a.b.pythonhosted.org", 443, true],
    ["pythonhosted.org", 443, false],
    ["evilpythonhosted.org", 443, false],
    ["mirror.example.com", 8443, true],
    ["mirror.example.com", 443, false],
    ["", 443, false],
  ] as const)("%s:%d → %s", (host, port, expected) => {
    expect(allowed(host, port)).toBe(expected);
  });
});

describe("deniedAddressReason", () => {
  const own = new Set(["10.1.2.3"]);
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["127.9.9.9", "a loopback address"],
    ["::1", "a loopback address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["0.0.0.0", "an unspecified address"],
    ["169.254.169.254", "a link-local address"],
    ["fe80::1", "a link-local address"],
    ["224.0.0.1", "a multicast address"],
    ["168.63.129.16", "a cloud metadata address"],
    ["10.1.2.3", "one of this runner's own addresses"],
    ["not-an-ip", "an unparsable address"],
  ])("%s is %s", (address, why) => {
    expect(deniedAddressReason(address, own)).toBe(why);
  });

  it.each(["104.16.0.1", "10.9.9.9", "192.168.1.10", "2606:4700::6810:1"])(
    "%s may be dialled (public, or a private mirror)",
    (address) => {
      expect(deniedAddressReason(address, own)).toBeNull();
    },
  );
});
