package dev.crawler.cli.deploy;

import java.util.List;
import java.util.Map;

/**
 * A {@code kustomization.yaml}: the fields the project's use (parsed strictly: an unknown one
 * fails).
 */
record Kustomization(
    String apiVersion,
    String kind,
    String namespace,
    List<String> resources,
    List<String> components,
    List<Patch> patches,
    List<Map<String, Object>> labels,
    List<Generator> configMapGenerator,
    List<Image> images) {

  /** A patch: a file, or an inline JSON 6902 patch with a target. */
  record Patch(String path, Map<String, String> target, String patch) {}

  record Generator(String name, List<String> files, Map<String, Object> options) {}

  record Image(String name, String newName, String newTag) {}

  List<String> resourcesOrEmpty() {
    return resources == null ? List.of() : resources;
  }

  List<String> componentsOrEmpty() {
    return components == null ? List.of() : components;
  }

  List<Patch> patchesOrEmpty() {
    return patches == null ? List.of() : patches;
  }
}
