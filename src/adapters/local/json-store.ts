// A small JSON document on disk shared by several processes (`cfa approve` while a wake
// runs): read-modify-write under an exclusive lock file, written by rename so a crash never
// leaves half a document.

import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { isRunning, parseLockOwner, thisProcess } from "../../records/lock-owner.js";

/**
 * A lock whose holder wrote nothing readable yet is given this long before it counts as
 * left behind (a holder writes its name at once after creating the file).
 */
const UNNAMED_LOCK_STALE_MS = 30_000;

export class JsonStore<T> {
  constructor(
    private readonly path: string,
    private readonly initial: () => T,
    private readonly parse: (raw: unknown) => T,
    /** Hears one line when a lock left by a process that died is taken over. */
    private readonly onTakeOver: (line: string) => void = () => {},
  ) {}

  async read(): Promise<T> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return this.initial();
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (cause) {
      throw new Error(`cfa/local: ${this.path} is not valid JSON; restore it or delete it`, {
        cause,
      });
    }
    return this.parse(raw);
  }

  /** Applies `change` to the current document under the lock and returns its result. */
  async update<R>(change: (doc: T) => R): Promise<R> {
    await mkdir(dirname(this.path), { recursive: true });
    const release = await this.lock();
    try {
      const doc = await this.read();
      const result = change(doc);
      const tmp = `${this.path}.${process.pid}.tmp`;
      try {
        await writeFile(tmp, JSON.stringify(doc, null, 2) + "\n");
        await rename(tmp, this.path);
      } catch (error) {
        // A full disk leaves no half-written temporary behind.
        await rm(tmp, { force: true });
        throw error;
      }
      return result;
    } finally {
      await release();
    }
  }

  private async lock(): Promise<() => Promise<void>> {
    const lockPath = `${this.path}.lock`;
    for (let attempt = 0; ; attempt++) {
      try {
        const handle = await open(lockPath, "wx");
        try {
          await handle.writeFile(JSON.stringify(thisProcess()));
        } catch (error) {
          // Taken but not written (the disk is full): let it go, or every later
          // command would wait for a lock nobody holds.
          await handle.close();
          await rm(lockPath, { force: true });
          throw error;
        }
        await handle.close();
        return () => rm(lockPath, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        // A lock left by a crashed process must not wedge the forge: its holder is named in
        // it (pid and start time, lock-owner.ts); one that no longer runs is taken over at
        // once. Only a lock nobody named yet waits out its age.
        const text = await readFile(lockPath, "utf8").catch(() => null);
        const owner = text === null ? null : parseLockOwner(text);
        if (owner !== null && !isRunning(owner)) {
          await rm(lockPath, { force: true });
          this.onTakeOver(
            `${lockPath} was left by process ${owner.pid}, which has ended: taken over.`,
          );
          continue;
        }
        const age = await stat(lockPath).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (owner === null && age > UNNAMED_LOCK_STALE_MS) await rm(lockPath, { force: true });
        if (attempt > 400)
          throw new Error(
            `cfa/local: ${lockPath} stays locked; remove it if no cfa command is running`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  }
}
