"""Bitext mining with a bilingual sentence encoder: k-NN search with faiss (`knn`), ratio-margin scoring and
candidate strategies (`margin`), corpora encoded in blocks to disk (`corpus`), and the cross-lingual evaluation of
`paranmt eval-xling` (`evaluate`). Pure code: no Beam inside."""
