// Collects one output stream up to a byte cap. Past the cap it keeps reading and discards,
// so a chatty command never blocks on a full pipe; it then ends or meets the time limit.

export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    const room = this.maxBytes - this.kept;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
      return;
    }
    if (room > 0) {
      this.chunks.push(chunk.subarray(0, room));
      this.kept += room;
    }
    this.truncated = true;
  }

  /** The kept bytes as UTF-8; a multi-byte character split by the cap is dropped whole. */
  text(): string {
    const bytes = Buffer.concat(this.chunks, this.kept);
    return (this.truncated ? completeUtf8Prefix(bytes) : bytes).toString("utf8");
  }
}

/** The longest prefix of `bytes` that does not end inside a UTF-8 sequence. */
export function completeUtf8Prefix(bytes: Buffer): Buffer {
  // A sequence is at most 4 bytes, so its lead byte is within the last 4.
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 4; i--) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return bytes.length - i < length ? bytes.subarray(0, i) : bytes;
  }
  return bytes;
}
