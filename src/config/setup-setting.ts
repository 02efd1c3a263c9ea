// `setup:` in .github/cfa.yml: the commands that prepare a workspace
// (install dependencies, build what tests need) before an agent works in it. Two shapes:
//
//   setup: [npm ci, [pip, install, -r, requirements.txt]]
//   setup: { commands: [npm ci], network: [node, registry.internal.example], timeoutSeconds: 900 }
//
// A command is a shell line (a string, run as `sh -c <line>` so `&&`, redirections and
// variables work as a person types them) or an argv list (run as given, no shell). `network`
// is what the egress proxy lets setup reach: by default the ecosystems detected from the
// default branch's files (detect-ecosystems.ts), `false`, `true`, or ecosystems and hosts
// like any role's `network:`. The file is only ever read from the default branch.

import * as z from "zod";
import { NetworkSettingSchema, type NetworkSetting } from "./network-setting.js";

/** The Actions job limit (6 h); npm ci of a large monorepo is minutes, not hours. */
const MAX_SETUP_SECONDS = 6 * 60 * 60;
export const DEFAULT_SETUP_TIMEOUT_SECONDS = 15 * 60;
/** A handful: setup is a few install steps, not a build script (put that in a file). */
const MAX_SETUP_COMMANDS = 20;

const line = z
  .string()
  .trim()
  .min(1, { error: "expected a command line such as `npm ci`" })
  .max(4000)
  .refine((text) => !text.includes("\0"), { error: "a command line cannot hold a NUL byte" });
const argv = z
  .array(z.string().max(4000))
  .min(1, { error: "expected a program and its arguments, e.g. [npm, ci]" })
  .max(200)
  .refine((args) => args.every((a) => !a.includes("\0")), {
    error: "an argument cannot hold a NUL byte",
  })
  .refine((args) => (args[0] ?? "").trim() !== "", { error: "the program name is empty" });
const command = z.union([line, argv], {
  error: "expected a shell line (`npm ci`) or an argv list ([npm, ci])",
});
const commands = z.array(command).max(MAX_SETUP_COMMANDS);

export const SetupSettingSchema = z.union(
  [
    commands,
    z.strictObject({
      commands: commands.default(() => []),
      /** Default: the ecosystems detected from the default branch's files. */
      network: NetworkSettingSchema.optional(),
      timeoutSeconds: z.int().min(1).max(MAX_SETUP_SECONDS).default(DEFAULT_SETUP_TIMEOUT_SECONDS),
    }),
  ],
  { error: "expected a list of commands, or a mapping { commands, network, timeoutSeconds }" },
);

/** `setup:` as the engine takes it: argv lists, the network (or "detect"), the time limit. */
export interface SetupConfig {
  commands: string[][];
  network: NetworkSetting | "detect";
  timeoutSeconds: number;
}

export function toSetupConfig(value: z.infer<typeof SetupSettingSchema> | undefined): SetupConfig {
  const given = value === undefined ? [] : Array.isArray(value) ? value : value.commands;
  const network = value === undefined || Array.isArray(value) ? undefined : value.network;
  return {
    commands: given.map((c) => (typeof c === "string" ? ["sh", "-c", c] : [...c])),
    network: network ?? "detect",
    timeoutSeconds:
      value === undefined || Array.isArray(value)
        ? DEFAULT_SETUP_TIMEOUT_SECONDS
        : value.timeoutSeconds,
  };
}

/** How a setup command is shown to people: the line as written, or the argv joined. */
export function setupCommandText(argv: readonly string[]): string {
  if (argv.length === 3 && argv[0] === "sh" && argv[1] === "-c") return argv[2] ?? "";
  return argv.map((a) => (/^[\w@%+=:,./-]+$/u.test(a) ? a : JSON.stringify(a))).join(" ");
}
