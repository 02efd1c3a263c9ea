// A tree as text lines, the way `tree` draws it. Pure.

export interface TreeNode {
  label: string;
  children?: TreeNode[];
}

export function drawTree(root: TreeNode): string[] {
  const out = [root.label];
  const walk = (nodes: readonly TreeNode[], prefix: string) => {
    nodes.forEach((node, i) => {
      const last = i === nodes.length - 1;
      const [first = "", ...rest] = node.label.split("\n");
      out.push(`${prefix}${last ? "└── " : "├── "}${first}`);
      const inner = prefix + (last ? "    " : "│   ");
      // A multi-line label continues under its own branch.
      for (const line of rest) out.push(`${inner}${node.children?.length ? "│ " : "  "}${line}`);
      walk(node.children ?? [], inner);
    });
  };
  walk(root.children ?? [], "");
  return out;
}
