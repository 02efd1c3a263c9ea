// What a promise rejected with, checked to be of the class the test expects, so the test can
// read its fields: fails the test when the promise resolved or threw anything else.

import { expect } from "vitest";

export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor of E
  ErrorClass: abstract new (...args: any[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ErrorClass);
  return error as E;
}
