// `which`: the first executable file named `program` on a PATH string.

import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";

export async function findProgram(program: string, searchPath: string): Promise<string | null> {
  if (program.includes("/")) return (await isExecutableFile(program)) ? program : null;
  for (const folder of searchPath.split(path.delimiter)) {
    if (!path.isAbsolute(folder)) continue; // a relative PATH entry depends on the cwd
    const candidate = path.join(folder, program);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
