package dev.capstan.ui;

import java.util.List;
import java.util.Map;

/**
 * Where the graph's parts are drawn, in absolute coordinates: computed once per graph structure,
 * reused while only colours change.
 */
record Layout(
    double width,
    double height,
    Map<String, Box> nodes,
    Map<String, Box> namespaces,
    Map<String, List<Point>> edges) {

  record Box(double x, double y, double width, double height) {}

  record Point(double x, double y) {}
}
