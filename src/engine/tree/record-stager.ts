// The records' way into a commit: `.cfa/` staged raw from the engine's own bytes (the
// ledger's), so no `.gitattributes` filter or `.gitignore` rule an agent wrote changes or
// drops a record on its way in, and put back to what the ledger says before the engine
// relies on it. JobRepo's commits and resets go through it, under the ledger's lock.

import type { GitClient, GitLineProcess } from "../../git/git-client.js";
import { writeFile } from "../../agents/fs/write-file.js";
import { OUTCOME_PATH } from "../../records/job-paths.js";
import { artifactFiles, settleRecords } from "./settle-records.js";
import { isArtifactPath, RECORDS_DIR, type RecordLedger } from "./record-ledger.js";

export class RecordStager {
  private hasher: GitLineProcess | undefined;

  constructor(
    private readonly root: string,
    private readonly git: GitClient,
    private readonly records: RecordLedger,
    /** Where a put-back record is reported. */
    private readonly warn: (what: string, path: string) => void,
  ) {}

  /**
   * Under the ledger's lock, before the engine first relies on `.cfa/` here: loads what it
   * must hold and puts it so, quietly (JobRepo.prepare says why).
   */
  async prepareLocked(): Promise<void> {
    if (this.records.isSeeded) return;
    await this.records.ready();
    await this.settle({ scopes: [RECORDS_DIR], quiet: true });
  }

  /**
   * Stages `.cfa/` under `scopes` raw (`hash-object --no-filters`): the records the engine
   * wrote, as it wrote them, and the phase artifacts as the leads wrote them. Nothing else
   * under `.cfa/` is ever staged — a file a command planted there never reaches a commit —
   * and no `.gitattributes` filter, eol or encoding rule or `.gitignore` an agent wrote
   * changes or drops a record on its way in. A record that no longer holds the engine's
   * bytes is put back first (the after-command check should have caught it).
   */
  async stage(scopes: readonly string[], withArtifacts = true): Promise<boolean> {
    if (scopes.length === 0) return false;
    return this.records.exclusive(async () => {
      const ledger = this.records;
      await this.prepareLocked();
      const inScope = (file: string) =>
        file !== OUTCOME_PATH &&
        (withArtifacts || !isArtifactPath(file)) &&
        scopes.some((scope) => file === scope || file.startsWith(`${scope}/`));
      // What each staged path should hold: the engine's records that changed since staged…
      const wanted = new Map<string, string>();
      for (const file of ledger.paths()) {
        const expected = ledger.expected(file)!;
        if (inScope(file) && expected.bytes !== undefined && !isArtifactPath(file)) {
          wanted.set(file, expected.oid);
        }
      }
      // …and the artifacts as they are now.
      const artifacts = await artifactFiles(this.root, ledger);
      for (const [file, oid] of artifacts) {
        if (!inScope(file)) continue;
        ledger.committed(file, oid);
        wanted.set(file, oid);
      }
      const toWrite = [...wanted].filter(([file, oid]) => ledger.indexedOid(file) !== oid);
      const gone = ledger
        .indexedPaths()
        .filter(
          (file) =>
            inScope(file) &&
            (isArtifactPath(file) ? !artifacts.has(file) : ledger.expected(file) === undefined),
        );
      const lines = gone.map(
        (file) => `0 ${"0".repeat(ledger.oidOf(Buffer.alloc(0)).length)}\t${file}`,
      );
      if (toWrite.length > 0) {
        let written = await this.hashFiles(toWrite.map(([file]) => file));
        const stale = toWrite.filter(
          ([file, oid], i) => written[i] !== oid && !isArtifactPath(file),
        );
        if (stale.length > 0) {
          // Someone changed a record the engine wrote: its own bytes go back, then again.
          for (const [file] of stale) {
            this.warn("put back a changed record", file);
            await writeFile(this.root, file, (await ledger.bytesOf(file))!, {
              noLinks: true,
              durable: false,
            });
          }
          written = await this.hashFiles(toWrite.map(([file]) => file));
        }
        toWrite.forEach(([file, oid], i) => {
          // git read the file by path: it must have read the very bytes checked.
          if (written[i] !== oid) throw new Error(`cfa/records: ${file} changed while staging`);
          lines.push(`100644 ${oid}\t${file}`);
        });
      }
      if (lines.length > 0) {
        await this.git.raw(["update-index", "--index-info"], { input: `${lines.join("\n")}\n` });
        for (const [file, oid] of toWrite) ledger.staged(file, oid);
        for (const file of gone) ledger.staged(file, null);
      }
      return lines.length > 0;
    });
  }

  /** Writes each file (root-relative) as a blob, unfiltered; returns their ids in order. */
  private async hashFiles(files: readonly string[]): Promise<string[]> {
    // One hash-object process answers every commit of this repo while it is busy (a commit
    // after each posted comment, question and turn): no process started per commit.
    this.hasher ??= this.git.lines(["hash-object", "-w", "--no-filters", "--stdin-paths"]);
    return this.hasher.ask(files.map((file) => `${this.root}/${file}`));
  }

  /**
   * Makes every record under `scopes` hold what the ledger says (put back, or removed when
   * the engine never wrote it and HEAD does not have it). `quiet` after a reset, where a
   * difference is only a checkout's conversion or a crash's leftover; otherwise each one is
   * logged: the after-command check (contain-workspace.ts) should have caught it first.
   */
  async settle(options: {
    scopes: readonly string[];
    quiet: boolean;
  }): Promise<Map<string, string>> {
    const { repaired, present } = await settleRecords(this.root, this.records, {
      inScope: (file) =>
        options.scopes.some((scope) => file === scope || file.startsWith(`${scope}/`)),
      // After a reset every artifact must be as committed; at a commit, whatever the lead
      // wrote is the artifact (the after-command check already refused links).
      writable: (file) => isArtifactPath(file) && !options.quiet,
    });
    if (!options.quiet) for (const file of repaired) this.warn("put back a changed record", file);
    return present;
  }
}
