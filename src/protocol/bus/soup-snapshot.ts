// Everything that makes two soups the same, in a canonical order: what Soup.snapshot() returns
// and what storeFromSnapshot() builds a store from (its own module, so neither imports the
// other's file for the type).

import type { Molecule } from "./molecules.js";
import type { ThreadKind } from "./store.js";

export interface SoupSnapshot {
  molecules: Molecule[];
  visibility: [string, string[]][];
  threads: [string, ThreadKind][];
  lineage: [string, string][];
  terminated: string[];
}
