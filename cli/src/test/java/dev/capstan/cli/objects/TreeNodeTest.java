package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TreeNodeTest {

  @Test
  void drawsNestedChildrenWithBoxCharacters() {
    TreeNode tree =
        new TreeNode(
            "root",
            List.of(
                new TreeNode("a", List.of(TreeNode.leaf("a1"), TreeNode.leaf("a2"))),
                new TreeNode("b", List.of(TreeNode.leaf("b1")))));
    assertEquals(
        List.of("root", "├── a", "│   ├── a1", "│   └── a2", "└── b", "    └── b1"), tree.render());
  }
}
