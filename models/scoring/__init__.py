"""Per-pair scores of the build pipeline's score stage: word-trigram overlap and the paraphrase score."""
