package dev.capstan.cli.objects;

import java.util.ArrayList;
import java.util.List;

/** A line of a printed tree and the lines below it. */
record TreeNode(String label, List<TreeNode> children) {

  TreeNode {
    children = List.copyOf(children);
  }

  static TreeNode leaf(String label) {
    return new TreeNode(label, List.of());
  }

  /** The tree drawn with box characters, one line per node, the root unindented. */
  List<String> render() {
    List<String> lines = new ArrayList<>();
    lines.add(label);
    renderChildren(this, "", lines);
    return lines;
  }

  private static void renderChildren(TreeNode node, String indent, List<String> lines) {
    for (int i = 0; i < node.children.size(); i++) {
      boolean last = i == node.children.size() - 1;
      TreeNode child = node.children.get(i);
      lines.add(indent + (last ? "└── " : "├── ") + child.label);
      renderChildren(child, indent + (last ? "    " : "│   "), lines);
    }
  }
}
