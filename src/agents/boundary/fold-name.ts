// Name comparison that a look-alike cannot slip past: NFC and NFD spellings of one name, any
// letter case, and the code points HFS+ ignores all fold to the same key.

// git's own is_hfs_dotgit() skips these when it compares names, for the same reason.
const IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

export function foldName(name: string): string {
  return name.normalize("NFC").replace(IGNORABLE, "").toLowerCase().normalize("NFC");
}
