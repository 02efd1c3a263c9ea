// "1 tool call", "2 tool calls": a count and its noun, agreeing. Pure.

export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
