"""Contrastive training of paraphrastic encoders (SPEC §3): margin loss, negative mining over mega-batches, the
trainer with checkpoint/resume, and readers of training pairs."""
