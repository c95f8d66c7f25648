package dev.crawler.common.usage;

import java.util.Locale;

/**
 * A category of use a site can state a preference about. The categories are the crawler's own, the
 * union of what the vocabularies it reads can say; {@link UsageVocabulary} maps each vocabulary's
 * terms onto them.
 */
public enum UseCategory {
  /** Training AI models of any kind (aipref {@code train-ai}, Content-Signal {@code ai-train}). */
  AI_TRAINING,
  /**
   * Training generative AI models (aipref {@code train-genai} of the earlier drafts; the latest
   * draft's {@code train-ai} is defined as training models that generate synthetic content, so it
   * states this category too).
   */
  GENAI_TRAINING,
  /**
   * Using the content as input to an AI model at answer time: grounding, retrieval-augmented
   * generation (Content-Signal {@code ai-input}, aipref {@code ai-use} and {@code ai-output} of the
   * earlier drafts).
   */
  AI_USE,
  /** Building a search index and showing links and short excerpts (aipref and Content-Signal). */
  SEARCH,
  /**
   * Text and data mining in the sense of EU Directive 2019/790 Article 4 (TDMRep {@code
   * tdm-reservation}, aipref {@code tdm}, {@code all} and {@code bots} of the earlier drafts).
   */
  TDM,
  /**
   * Training AI models on the images of the document ({@code noimageai}, {@code noai}). A
   * downstream system that trains on a document's images reads this category; one that trains on
   * its text reads {@link #AI_TRAINING}.
   */
  IMAGE_AI_TRAINING;

  /** The category's name in events and logs: lower case, words joined by '-' ({@code ai-use}). */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
