"""The bilingual generative transformer (BGT, thesis ch. 5) and its translation baselines: model.py (networks and
losses), trainer.py (the training loop of `paranmt train-bgt`). Its sentence encoder is models/encoders/bgt.py."""
