// `--record FILE`: the model's real responses (createRecordingModel) and the person's
// actions go into a replay file, so a real run can be replayed later without a model.
// `run --record` starts the file; every later verb with `--record` appends to it.

import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import {
  createRecordingModel,
  parseRecording,
  RECORDING_VERSION,
} from "../adapters/scripted/index.js";
import type { Model } from "../ports/model.js";
import { CliError } from "./cli-error.js";
import { parseReplayFile, serializeReplayFile, type ReplayFile } from "./replay-file.js";

export interface Recorder {
  model: Model;
  /** Writes the file: what it held, this command's action, and the responses recorded now. */
  save(): Promise<void>;
}

export function recordInto(path: string, file: ReplayFile, inner: Model): Recorder {
  // The file names the tools its responses were made with; a later verb keeps the name.
  const toolSet = parseRecording(file.recording, path).toolSet;
  const recording = createRecordingModel(inner, toolSet === undefined ? {} : { toolSet });
  return {
    model: recording,
    async save() {
      const before = parseRecording(file.recording, path).instances;
      const instances: Record<string, unknown[]> = { ...before };
      // Per instance, a later wake continues where the earlier one stopped: append.
      for (const [key, steps] of Object.entries(recording.recording().instances)) {
        instances[key] = [...(instances[key] ?? []), ...steps];
      }
      const next = {
        ...file,
        recording: {
          version: RECORDING_VERSION,
          ...(toolSet === undefined ? {} : { toolSet }),
          instances,
        },
      };
      await writeFile(path, serializeReplayFile(next));
    },
  };
}

/** The replay file a later verb appends to; it must exist (`cfa run --record` made it). */
export async function loadForRecording(path: string): Promise<ReplayFile> {
  if (!existsSync(path)) {
    throw new CliError(
      `${path} does not exist: start a recording with \`cfa run --record ${path} "…"\`.`,
    );
  }
  const file = parseReplayFile(await readFile(path, "utf8"), path);
  parseRecording(file.recording, path);
  return file;
}

/** A new replay file goes where nothing is yet, in a folder that exists: checked up front. */
export function refuseExisting(path: string): void {
  if (existsSync(path)) {
    throw new CliError(`${path} already exists: choose another file, or delete it first.`);
  }
  if (!existsSync(dirname(path))) {
    throw new CliError(`cannot record into ${path}: the folder ${dirname(path)} does not exist.`);
  }
}
