// A payload the app handles arrived without a field it relies on: GitHub's format changed or
// the delivery is not GitHub's. Thrown, never swallowed, so the delivery shows as failed.

export class AppEventError extends Error {
  override readonly name = "AppEventError";
}
