// What one git command did: its exit code, stdout as bytes, stderr as text. Its own module so
// that what runs git for the runner (driver-overrides.ts) and the runner share it without a
// circle.

export interface GitResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}
