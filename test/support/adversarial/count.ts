// Each adversarial class names its case count in its test name (test/adversarial/README.md
// keeps the counts), taken from the table it runs, so the number in the report is the number
// actually tried.

export function cases(title: string, count: number, unit = "cases"): string {
  return `${title} (${count} ${unit})`;
}
